"""Presentation: analyses of whole games, and the text, HTML and notebook pictures of positions."""
