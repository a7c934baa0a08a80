"""The match pages: a transport beside Discord that shows a match in a browser (WEB_PORT).

One page per match with its public map (pan and zoom), status, log and a replay slider over
every phase end, following the match as it moves; a seat's private page adds its own view,
opened only by the signed link in that player's DMs. It imports the service, render and below,
never bot/discord; the pages are static files shipped in `static/`.
"""

from bot.web.server import WebServer

__all__ = ["WebServer"]
