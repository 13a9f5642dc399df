"""URL converters shared by the API's URLconfs."""

from django.urls import register_converter


class IdConverter:
    """A database id: 1 to 18 digits, so that a larger number is a 404 like any unknown
    id, not a PostgreSQL "bigint out of range" (a 500)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
