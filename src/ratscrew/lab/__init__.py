"""The lab: many complete games between computer players on virtual time, and what they show."""
