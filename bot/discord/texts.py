"""What the commands and buttons say to players, in one place.

Each reply is a constant or a ``str.format`` template with named fields, so the words can be
read (and reworded) together, apart from the code that decides which one to send. The service's
refusals and the delivery's posts speak for themselves elsewhere; these are the Discord layer's
own replies."""

from __future__ import annotations

# The lobby: `/game new`, `/game join` ... and the lobby message's buttons.
NO_OPTION = "{game} has no option `{option}`."
NO_GAME = "There is no game called {game}. Choose one of: {games}. Nothing was created."
OPEN_LOBBY = ("You already have a lobby open on this server: **{title} #{match_id}** in <#{channel_id}>. "
              "Start it, or close it with `/game abort` there, before you open another. Nothing was created.")
LOBBY_OPENED = "Lobby for **{title}** opened (match #{match_id}{options}). Press Join below.{where}"
LOBBY_OPTION = ", {option}"
LOBBY_IN_THREAD = " It runs in its own thread, started from the lobby message."
SLOWMODE_WARNING = ("\n⚠ This channel has slowmode ({seconds} s between posts) and I may not bypass it: the match's "
                    "posts here will come {seconds} s apart at best (your decisions still come by DM). A server admin "
                    "can give my role Bypass Slowmode or Manage Messages here, or turn slowmode off.")
JOINED = "You joined the {title} match."
LEFT = "You left the lobby."
AI_SEATED = "{name} took a seat{how}."
AI_PLAYS_AT_RANDOM = "; it plays any legal move at random"
STARTED = "The match has started. Your choices come to you by DM."
LOBBY_CLOSED = "This lobby is closed: the match has started or ended."
ALREADY_STARTED = "This match has already started."

# The lobby post (bot/discord/lobby.py): the match's one message in the channel it was opened in.
LOBBY_HEAD = "**{title}** (match #{match_id}){host}"
LOBBY_HOSTED = ", hosted by {host}"
LOBBY_SEATS = "Seats {taken} of {seats}: {names}"
LOBBY_PLAYERS = "Players: {names}"
LOBBY_NO_SEATS = "none yet"
LOBBY_OPEN = "The lobby is open: press Join to take a seat."
LOBBY_NOW = "Now: {phase}."
LOBBY_PAUSED = "Now: {phase}; the match is paused: deadlines are stopped until `/game resume`."
LOBBY_THREAD = " Follow the match in <#{channel_id}>."
LOBBY_STORY = "The whole match, phase by phase, is in <#{channel_id}>."

# Looking at a match: `/game map`, `/game log`, `/game rules`, `/game act` and the board's buttons.
NO_MATCH_HERE = "No match in this channel."
NO_MATCH_START_ONE = "No match in this channel. Start one with `/game new`."
MAP_CAPTION = "**{title}** - {phase}"
NOTHING_YET = "Nothing has happened yet."
NO_RULE_TOPIC = "No rule topic '{asked}'. Topics: {topics}"
RULE = "**{topic}**\n{text}"
RULE_TOPICS = "**{title}** rule topics: {topics}.\nRead one with `/game rules topic:`."
NO_TOPICS = "none"
NO_DECISION = "You have no open decision right now."

# Running a match: `/game abort`, `/game kick`, `/game extend`, `/game pause`, `/game resume`.
ABORTED = "The match was aborted."
NOT_SEATED = "{name} has no seat in this match."
KICKED = "{name}'s seat is now played by the AI."
EXTENDED = "Deadline extended: now {deadline}."
PAUSED = "The match is paused: no deadlines run until `/game resume`."
RESUMED = "The match goes on."

# A player's own table: `/game mine`, `/game undo`, `/game away`.
NO_SEAT_ANYWHERE = "You hold no seat in an open match {where}."
ON_ANY_SERVER = "on any server we share"
ON_THIS_SERVER = "on this server"
MY_MATCHES = "Your open matches:"
UNDONE = ("Undone: {summary} ({why}). The open decisions were sent again; "
          "the same choices bring the same dice.")
UNDO_ASKED = ("Asked {asked} to agree to undo {summary}, because {why}. "
              "It is cancelled by a refusal or {due} without an answer.")
AWAY = "You are away until {until}: {meanwhile}. Make a choice or use `/game act` to take your seat back sooner."
AWAY_AI_PLAYS = "the AI plays your seat meanwhile"
AWAY_DEADLINES_WAIT = "your deadlines wait for you meanwhile"

# Clicks on a prompt: refusals, checks of typed numbers, and the echo of a choice.
NOT_OURS = "This button is not part of an open warhost match, so nothing was done."
NOT_HERE = "This button is not part of an open warhost match here, so nothing was done."
NOT_OPEN = "This choice is no longer open: the game has moved on. Use `/game act` to see what is open now."
NOT_YOURS = "This choice belongs to another player, so nothing was done."
QUICK_OUT_OF_RANGE = "{label}: '{raw}' is not from {low} to {high}. Nothing was changed."
NOT_A_NUMBER = "{label}: '{raw}' is not a whole number. Nothing was changed."
OUT_OF_RANGE = "{label}: {raw} is not from {low} to {high}. Nothing was changed."
ALREADY_DONE = "Already done {when}: {text} Nothing was done again."
EARLIER_OUTCOME = "Your earlier command went through, though Discord did not let me say so then: {text}"
FORM_MISMATCH = ("This form does not match your open decision ({asks}). Nothing was chosen; answer with the "
                 "buttons or menu of your newest DM, or with `/game act`.")
CHANGE_CHOICE = "Change your choice:"
SEALED_CHOICE = ("Your choice for **{text}**: {label}.\n"
                 "It stays sealed until everyone has chosen; you can change it until then.")
DONE_CHOICE = "Done: {text}\nYou chose: **{label}**."

# Undo consent DMs.
RETIRED = ("This choice is no longer open: the match was undone after this message was sent. "
           "Your open decision came again in a newer message (or use `/game act`).")
ONLY_IN_DMS = "Undo requests are answered in the DM they came in, so nothing was done."
UNDO_ANSWERED = {
    "done": "You agreed, and the undo is done: {summary}. Your decisions come again in new messages.",
    "pending": "You agreed to undo {summary}. It waits for the others (until {due}).",
    "refused": "You refused: the undo of {summary} is cancelled and nothing changed.",
    "expired": "Too late: the undo of {summary} expired and nothing changed.",
    "void": "The undo of {summary} is void: the match moved on since it was asked. Nothing changed.",
}
UNDO_OTHER = "{summary}: {status}."
UNDO_CLOSED = ("**Undo in <#{channel_id}>:** {who} asked to undo {summary}. The request is closed ({why}), "
               "so there is nothing left to answer here.")
UNDO_CONSENT = ("**Undo in <#{channel_id}>?** {who} asks to undo {summary}, because {why}.\n"
                "Agree if you are fine playing on from before it; one refusal cancels it. Answer {due}; "
                "after that it is cancelled.\nThe same choices bring the same dice: an undo cannot re-roll luck.")

# The status board (bot/discord/board.py): a line per seat under the match's head.
BOARD_HEAD = "**{title}** (match #{match_id}) - {phase}"
BOARD_PAUSED = "Paused: deadlines are stopped until `/game resume`."
BOARD_DEADLINE = "Deadline {deadline}"
BOARD_SEAT = "- {name}{host}: {state}{score}"
BOARD_SCORE = " · {score} {name}"
BOARD_ORDER = "Turn order: {order}"
BOARD_TEAM_SCORE = "Score: {score}"
BOARD_HOST = " (host)"
BOARD_LATEST = "Latest: {line}"
BOARD_ENDED = "The match is {status}."
SEAT_AI = "AI"
SEAT_AI_ON_TURN = "AI, on turn"
SEAT_ON_TURN = "on turn: owes a choice"
SEAT_WAITS_TURN = "waits for their turn"
SEAT_WAITS = "nothing to choose now"
SEAT_AWAY_UNTIL = "away until {until} ({meanwhile})"
SEAT_AWAY_AI_PLAYS = "the AI plays"
SEAT_AWAY_DEADLINES_WAIT = "their deadlines wait"
SEAT_TAKEN_OVER = "away (the AI plays)"
SEAT_PLAYED = "played"
SEAT_OWES = "owes a choice"
SEAT_MAY_ACT = "may act"
SEAT_CHOSEN = "chosen ✓"

# Reminders, and mentions and reminders taken back once answered.
REMINDER_DM = "Reminder: **{title}** in <#{channel_id}> still waits for your choice.{deadline}"
REMINDER_DEADLINE = " Deadline {deadline}."
REMINDER_ANSWERED = "Reminder about **{title}**: answered in time. Thank you."
HAS_CHOSEN = "{name} has chosen."

# Where a command ran with several matches around.
SEVERAL_MATCHES = "Several matches run from this channel: {where}{more}. Use the command in your match's thread."
SEVERAL_MATCH = "**{title} #{match_id}** in <#{channel_id}>"
SEVERAL_MORE = " and {count} more"

# Failures (bot/discord/errors.py).
UNEXPECTED = ("Something went wrong on our side (error id {error_id}). Nothing was changed; try again, "
              "and tell the host the id if it keeps happening.")
BUSY = "The bot is very busy; your click was not taken, try again in a moment."
OUT_OF_DATE = "This command changed since Discord last loaded it; wait a minute and try again. Nothing was changed."
CHECK_FAILED = "You cannot use this command here. Nothing was changed."
BAD_OPTIONS = "Bad options: {why} Nothing was changed."

# Conceding and votes to end a match (bot/discord/vote_ui.py).
CONCEDE_CONFIRM = ("**Concede your seat in {title}?** The AI plays it from now on and you cannot take it back; "
                   "the match counts as a loss for you, even if your seat wins. Click Concede to confirm, "
                   "or dismiss this message to keep playing.")
CONCEDE_BUTTON = "Concede"
CONCEDED = "You conceded: {ai} plays your seat from now on. Thank you for playing."
CONCEDED_ENDED = "You conceded, and as nobody else was left at the table the match is over."
VOTE_ASKED = ("Asked {asked} to {what}; you count as yes. One no ends the vote, and so does "
              "{due} without every answer.")
VOTE_PASSED = {
    "draw": "Nobody else had to agree: the match is over as a draw.",
    "abandon": "Nobody else had to agree: the match is abandoned and moves no rating.",
}
VOTE_WHAT = {"draw": "end the match as a draw", "abandon": "abandon the match (no ratings)"}
VOTE_DM = ("**Vote in <#{channel_id}>:** {who} proposes to {what}.\n"
           "It happens only if every player says yes; one no ends the vote. Answer {due}; after that it ends "
           "and the match goes on.")
VOTE_DM_CLOSED = ("**Vote in <#{channel_id}>:** {who} proposed to {what}. The vote is closed ({why}), "
                  "so there is nothing left to answer here.")
VOTE_ANSWERED = {
    "passed": "You said yes, and so did everyone: the match is over.",
    "pending": "You said yes. The vote waits for the others (until {due}).",
    "refused": "You said no: the vote is over and the match goes on.",
    "expired": "Too late: the vote ran out of time and the match goes on.",
    "void": "This vote is void: the match ended or changed before everyone answered.",
}
VOTE_ONLY_IN_DMS = "Votes are answered in the DM they came in, so nothing was done."
LOBBY_VOTE = "Vote: {line}"

# Players' pace (issue 29): clock deadlines in `/game new`, pauses that end, away everywhere, stats.
LOBBY_CLOCK = ", deadline {clock}"
LOBBY_CLOCK_LINE = "Deadline {clock} after a decision opens."
PAUSED_UNTIL = ("The match is paused until {until}: no deadlines run until then. It goes on by itself then, "
                "or sooner with `/game resume`.")
BOARD_PAUSED_UNTIL = "Paused until {until}: deadlines are stopped; the match goes on by itself then."
AWAY_EVERYWHERE = ("You are away until {until} in {count}: {matches}. "
                   "Make a choice or use `/game act` in a match to take your seat back there sooner.")
AWAY_EVERYWHERE_MATCH = "**{title} #{match_id}** in <#{channel_id}> ({meanwhile})"
AWAY_AI_PLAYS_SHORT = "the AI plays"
AWAY_DEADLINES_WAIT_SHORT = "your deadlines wait"
PACE_LINE = "**Pace**: {answer}; {missed}."
PACE_ANSWER = "answers in {time} (median of {count})"
PACE_NO_ANSWER = "no answers timed yet"
PACE_MISSED = "missed {missed} of {owed} deadlines ({share})"
PACE_NO_DEADLINE = "no deadlines owed yet"
NO_FINISHED_YET = "{who} has no finished matches on this server yet."
LEADERBOARD_RECORD = "{wins} in {games} played"

# `/game notify` (bot/discord/notify_commands.py) and what it changes in turn announcements.
TURN_IN_THREAD = "your turn in **{title}**: press **Act** below (or use `/game act`) to choose."
HEADS_UP_MENTION = "heads-up: {text}"
NOTIFY_SAVED_MATCH = "Saved for **{title}** (this match only; it overrides your server-wide settings)."
NOTIFY_SAVED_EVERYWHERE = "Saved for all your matches on this server (a match's own settings still override it)."
NOTIFY_NOTHING_GIVEN = ("Nothing changed. Your settings are below; to change one, give it as an option "
                        "(reminders, quiet with zone, announce, heads_up).")
NOTIFY_REMINDERS_ON = "Reminders: on (at half and at 90% of a decision's time)"
NOTIFY_REMINDERS_OFF = "Reminders: off"
NOTIFY_QUIET = ("Quiet hours: {quiet} (nothing buzzes then: a reminder waits until they end, or is dropped if "
                "the deadline comes first){now}")
NOTIFY_QUIET_NOW = "; quiet now, until {until}"
NOTIFY_NO_QUIET = "Quiet hours: none"
NOTIFY_BY_DM = "Turns: announced by DM"
NOTIFY_IN_THREAD = "Turns: a mention in the match's thread, no DMs (choose with its Act button or `/game act`)"
NOTIFY_HEADS_UP_ON = "Heads-up when the seat before yours starts its turn: on"
NOTIFY_HEADS_UP_OFF = "Heads-up when the seat before yours starts its turn: off"
NOTIFY_OWN = " (set for this match)"
NOTIFY_NEEDS_ZONE = ("Your quiet hours are read in UTC until you pick your time zone (`/game notify zone:`).")
MINE_NOTIFY = "your notifications: {summary}"
SEAT_NO_REMINDERS = " (no reminders)"

# Replacements: `/game replace` and the Take seat button (seat_commands.py, seat_posts.py).
REPLACE_OPENED = ("{name}'s seat ({seat}) is open for a replacement{meanwhile}. The match's channel and its lobby "
                  "post offer it with a **Take {seat}** button; the first member not seated in this match to click "
                  "it plays the seat from here.")
REPLACE_MEANWHILE = ": {name} no longer plays it, and the AI plays it until someone takes it"
REPLACE_STILL_AI = " (the AI plays it until someone takes it)"
TAKE_SEAT = "Take {seat}"
SEAT_OPEN_STATE = "open for a replacement (the AI plays meanwhile)"
LOBBY_OPEN_SEAT = "{seat} ({name} meanwhile) waits for a replacement: click **Take {seat_lower}** to play it from here."
SEAT_TAKEN = ("You now play {seat} of **{title}** in <#{channel_id}>, in place of {name}. Your seat's private panel "
              "and its open decision are in your DMs (or use `/game act` in the match's channel).")
SEAT_OPEN_ENDED = "This post offered {seat} to a replacement; the match ended before anyone took it."
SEAT_PASSED_ON = "{why} Nothing was done."
SHARED_SEATS = "Seats played in part:"
SHARED_SEAT = "#{match_id} {title}, {seat}"

# The search AI (issue 31): `/game addai policy:search`.
AI_THINKS_AHEAD = "; it plays each move out in its head first, so its turns take a moment longer"

# The AI that takes seats over (issue 31): `/game new takeover:`, shown with the match's settings.
LOBBY_TAKEOVER_SEARCH = ", the AI that thinks ahead plays late or away seats"
LOBBY_TAKEOVER_LINE = "Late or away seats are played by the AI that thinks ahead (the search AI)."
