"""Shared test configuration; each area keeps its own fixtures in its own conftest."""
