"""Computer players: levels shaped like human reaction times, deciding only from what a seat can see."""

from ratscrew.bots.bot import Bot, Sight, SlapPlan
from ratscrew.bots.levels import LEVELS, Level, level
from ratscrew.bots.reaction import ExGaussian, probability_first

__all__ = ["LEVELS", "Bot", "ExGaussian", "Level", "Sight", "SlapPlan", "level", "probability_first"]
