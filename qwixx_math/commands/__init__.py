"""Sub-commands of ``qwixx-math``: one module each, discovered by :mod:`qwixx_math.cli`."""
