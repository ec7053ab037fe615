"""The HTTP API (FastAPI). The only package that imports FastAPI."""
