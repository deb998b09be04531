"""Pattern-database tables: groups of tiles, how their placements are numbered, and the builds.

:mod:`.layout`
    groups and partitions: how a group's placement is numbered (the one group index), the
    named and automatic partitions, the reflection of the goal;
:mod:`.build`
    building one group's table: the byte-per-state scan for groups with repeated labels, and
    the entry to :mod:`.distinct`, the two-bit parallel builder for distinct tiles (on the
    breadth-first layer driver of :mod:`slidelab.tables.driver`, shared with the whole-space
    search).
"""
