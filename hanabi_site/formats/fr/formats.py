# "sam. 28 nov., 14:05", as French writes a date with its weekday.
DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "j N Y"
TIME_FORMAT = "H:i"
SHORT_DATETIME_FORMAT = "D. j N, H:i"
DATETIME_FORMAT = "D. j N, H:i e"
