"""Static files under ASGI: served with asynchronous file reads.

whitenoise handed Django a synchronous iterator, so every static file served under
ASGI made Django warn ("StreamingHttpResponse must consume synchronous iterators…")
and read the whole file in a thread.
"""

import warnings

import pytest


def test_static_css_is_served(client):
    assert client.get("/static/css/site.css").status_code == 200


@pytest.mark.asyncio
async def test_static_files_stream_asynchronously_under_asgi(async_client):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        response = await async_client.get("/static/js/site.js")

    assert response.status_code == 200
    assert not [w for w in caught if "synchronous iterators" in str(w.message)]
