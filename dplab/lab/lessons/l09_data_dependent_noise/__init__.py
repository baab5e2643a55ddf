"""Lesson 9, data-dependent noise (``notebooks/09_data_dependent_noise.ipynb``)."""
