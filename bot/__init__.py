"""warhost: the Discord game master, its service layer and local front-ends."""
