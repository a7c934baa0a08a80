"""A small thread-safe LRU cache for static layers (background, roads, plates).

Static layers depend only on the map, so they are built once per map and copied for each
frame. Cached images are never drawn on: callers copy them (`Image.copy`) or only read them.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

T = TypeVar("T")


class LayerCache(Generic[T]):
    """LRU mapping from a key to a built value, safe to use from several threads."""

    def __init__(self, max_entries: int = 32) -> None:
        self._max = max_entries
        self._items: OrderedDict[Hashable, T] = OrderedDict()
        self._lock = threading.Lock()
        self.builds = 0

    def get(self, key: Hashable, build: Callable[[], T]) -> T:
        """The cached value for `key`, building it (outside the lock) if missing."""
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        value = build()
        with self._lock:
            if key in self._items:  # another thread built it meanwhile: keep one
                return self._items[key]
            self.builds += 1
            self._items[key] = value
            while len(self._items) > self._max:
                self._items.popitem(last=False)
            return value

    def clear(self) -> None:
        """Forget everything (tests use it to measure cold draws)."""
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)

