"""Lesson 5, the exponential mechanism and the net mechanism (``notebooks/05_net_mechanism.ipynb``)."""
