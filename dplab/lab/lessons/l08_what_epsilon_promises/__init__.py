"""Lesson 8, what epsilon promises (``notebooks/08_what_epsilon_promises.ipynb``)."""
