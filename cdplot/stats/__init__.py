"""The statistics core: numpy and scipy.special only, never matplotlib, jinja2 or pandas."""
