"""Credence: a graph-database-native knowledge system for a Claude-driven agent."""

__version__ = "0.1.0"
