"""ratscrew: Egyptian Ratscrew, its house rules, a real-time table and a lab to measure it."""

__version__ = "0.1.0"
