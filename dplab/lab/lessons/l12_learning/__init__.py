"""Lesson 12, learning with differential privacy (``notebooks/12_learning.ipynb``)."""
