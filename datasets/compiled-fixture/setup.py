from setuptools import Extension, setup

setup(
    name="fastmath",
    version="0.1",
    packages=["fastmath"],
    ext_modules=[Extension("fastmath._speedups", ["fastmath/_speedups.c"])],
)
