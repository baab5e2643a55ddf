"""Lesson 6, composition, privacy filters and noise reduction (``notebooks/06_adaptive_filters.ipynb``)."""
