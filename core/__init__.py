"""Below every app: what all of them share (the coded domain error). Imports nothing of ours."""
