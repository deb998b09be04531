"""ASGI middleware that refuses request bodies over a size (413), chunked uploads included."""

from __future__ import annotations

from fastapi.responses import JSONResponse


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413; the application gets the whole
    body at once (it is small), never a part of one."""

    def __init__(self, app, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None:
            try:
                too_big = int(length) > self.limit
            except ValueError:
                too_big = False
            if too_big:
                return await self._refuse(send)
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                return await self._refuse(send)
            chunks.append(chunk)
            more = message.get("more_body", False)
        body, delivered = b"".join(chunks), False

        async def replay():
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send):
        response = JSONResponse(
            {"error": f"request body over {self.limit:,} bytes"}, status_code=413
        )
        await response({"type": "http"}, None, send)
