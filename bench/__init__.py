"""Measurements of gbnf against the alternatives; ``python -m bench`` runs them."""
