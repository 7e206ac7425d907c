"""Stored inputs with stored answers: the model corpus end to end."""
