"""Front-ends that need no Discord: the terminal table."""
