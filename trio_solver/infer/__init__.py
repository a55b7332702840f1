"""Inference: the exact posterior over the hidden cards of a seat's view, and deals drawn from it."""
