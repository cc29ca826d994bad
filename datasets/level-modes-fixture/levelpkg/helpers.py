"""Functions and classes the targets reach from another file."""


def helper(value):
    return value + 1


def reexported(value):
    return value * 2


def starred(value):
    return -value


class Parser:
    def parse(self, text):
        return text.split()

    @classmethod
    def build(cls):
        return cls()


class Base:
    def inherited(self):
        return 1
