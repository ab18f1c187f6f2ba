"""Tests of the game engines, their computer players and renderers."""
