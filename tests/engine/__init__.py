"""Engine tests: rules per clause, abilities, properties."""
