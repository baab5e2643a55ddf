"""Lesson 10, the local model (``notebooks/10_local_model.ipynb``)."""
