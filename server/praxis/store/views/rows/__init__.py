"""The read models' SQL, one module per view (inbox, owed, stuck, gauges).

The views read other slices' tables, never write them (``docs/architecture.md``'s rules
table); every statement they run is built and run here, and the modules beside this
package (``inbox.py``, ``stuck.py``, ``gauges.py``, ``owed.py``) call these functions.
"""
