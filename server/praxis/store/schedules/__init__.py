"""Schedules: runs started at the times of a calendar (ScheduleService, the sweeper)."""
