"""dplab: a teaching lab for differential privacy.

The public API is flat: ``dplab.laplace_mechanism``, ``dplab.gaussian_sigma``,
``dplab.check``, ... Each module's ``__all__`` says what it exports; this file
re-exports them. Notebooks live in ``notebooks/``; see README.md.
"""

from dplab import composition, datasets, mechanisms, simulate
from dplab.composition import *  # noqa: F403
from dplab.datasets import *  # noqa: F403
from dplab.exercises import check
from dplab.mechanisms import *  # noqa: F403
from dplab.simulate import *  # noqa: F403

__version__ = "0.1.0"

__all__ = [
    *composition.__all__,
    *datasets.__all__,
    *mechanisms.__all__,
    *simulate.__all__,
    "check",
]
