"""A package whose __init__ re-exports a helper, as many projects do."""

from .helpers import reexported
