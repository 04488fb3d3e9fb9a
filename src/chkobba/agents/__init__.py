"""Players: each chooses a move from an :class:`~chkobba.fishing.observe.Observation` only.

``make_agent("greedy", seed=1)`` builds a player by name; :data:`AGENTS` lists them.
"""

from chkobba.agents.base import AGENTS, Agent, AgentError, make_agent, playable_agents

__all__ = ["AGENTS", "Agent", "AgentError", "make_agent", "playable_agents"]
