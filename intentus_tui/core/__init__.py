"""The headless core: parsing, hashing, verification, replay, diff. Imports no UI library."""
