"""Tiny Big Wars engine tests."""
