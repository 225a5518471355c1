"""Computer players: levels shaped like human reaction times, deciding only from what a seat can see."""

from ratscrew.bots.bot import Bot, Sight, SlapPlan
from ratscrew.bots.levels import LAB_LEVELS, LEVELS, Level
from ratscrew.bots.reaction import ExGaussian, FixedTime, probability_first
from ratscrew.bots.registry import LEVEL_NAMES, MATCH, UnknownLevel, resolve, resolve_all
from ratscrew.bots.strategy import STRATEGIES, Strategy, UnknownStrategy

__all__ = [
    "LAB_LEVELS",
    "LEVELS",
    "LEVEL_NAMES",
    "MATCH",
    "STRATEGIES",
    "Bot",
    "ExGaussian",
    "FixedTime",
    "Level",
    "Sight",
    "SlapPlan",
    "Strategy",
    "UnknownLevel",
    "UnknownStrategy",
    "probability_first",
    "resolve",
    "resolve_all",
]
