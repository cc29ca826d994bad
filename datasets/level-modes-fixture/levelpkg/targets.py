"""One target per clause of the level modes; the tests name them."""

import levelpkg.helpers
from levelpkg.helpers import helper as absolute_helper

from . import helpers
from . import reexported
from .helpers import Base, Parser, helper


def local_function(value):
    return value


def relative_call(value):
    """Calls a relatively imported function."""
    return helper(value)


def absolute_call(value):
    """Calls the same function through an absolute import of the package."""
    return absolute_helper(value)


def reads_only(values):
    """Passes a relatively imported function without calling it."""
    return list(map(helper, values))


def module_attribute_call(value):
    """Calls a function as an attribute of a relatively imported module."""
    return helpers.helper(value)


def absolute_module_call(value):
    """Calls a function through the absolutely imported package."""
    return levelpkg.helpers.helper(value)


def reexport_call(value):
    """Calls a function the package's __init__ re-exports."""
    return reexported(value)


def same_file_call(value):
    """Calls a function of its own file."""
    return local_function(value)


def nested_call(value):
    """Calls a helper it defines itself."""

    def inner(item):
        return item

    return inner(value)


def instantiates(text):
    """Instantiates a relatively imported class."""
    parser = Parser()
    return parser


def class_method_call(text):
    """Calls a method on a relatively imported class."""
    return Parser.build()


def instance_method_call(text):
    """Calls a method of an instance made on the spot."""
    return Parser().parse(text)


def isinstance_check(value):
    """Names a relatively imported class in isinstance."""
    return isinstance(value, Parser)


def inner_import_call(value):
    """Calls a function imported inside the function."""
    from .helpers import reexported as twice

    return twice(value)


def recursive(value):
    """Calls only itself."""
    return recursive(value - 1) if value else 0


class Widget(Base):
    def own(self):
        return 2

    def own_method_call(self):
        """Calls a method of its own class."""
        return self.own()

    def inherited_call(self):
        """Calls a method its class inherits from another file."""
        return self.inherited()
