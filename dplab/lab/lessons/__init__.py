"""One package per notebook, ``lNN_<notebook stem>``: ``report.py`` (report rows,
exercises, the lesson's constants and small tables) and ``views.py`` (figures and
widget panels). ``dplab.lab.registry`` walks them in order."""
