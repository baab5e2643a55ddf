"""Lesson 7, reconstruction attacks (``notebooks/07_reconstruction_attack.ipynb``)."""
