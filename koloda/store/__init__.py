"""The local store: players, finished games with their records and results, statistics and
the Opendaum-33 ranks (разряды). SQLAlchemy 2.x; SQLite in the user's data directory by
default, any SQLAlchemy URL on request. Nothing under ``koloda.games`` imports this."""

from koloda.store.store import (
                                AccountInfo,
                                GameStats,
                                GameSummary,
                                NameTaken,
                                PlayerStats,
                                RankChange,
                                Store,
                                StoreError,
                                default_url,
                                name_key,
)

__all__ = ["AccountInfo", "GameStats", "GameSummary", "NameTaken", "PlayerStats", "RankChange",
           "Store", "StoreError", "default_url", "name_key"]
