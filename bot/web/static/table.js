// The match page: reads the table's state, shows it, follows the match as it moves (server-sent
// events) and lets the map pan and zoom (drag, pinch, wheel, keys, buttons). No framework.
"use strict";

(() => {
  const MAP_TEXT_PX = 20;   // the smallest text drawn on a map, in image pixels (render/fonts.py MAP_MIN_PX)
  const LEGIBLE_PX = 10;    // never zoom out so far that it is smaller than this on screen
  const MAX_SCALE = 4;
  const base = location.pathname.replace(/\/+$/, "");
  const $ = (id) => document.getElementById(id);
  const viewport = $("viewport"), map = $("map"), slider = $("replay");
  const table = { state: null, frame: -1, following: true, updates: 0, view: { scale: 1, x: 0, y: 0 } };
  window.warhostTable = table;  // what a test (or a curious player) can read

  // ---------------------------------------------------------------- the state

  async function load() {
    const response = await fetch(base + "/state.json", { cache: "no-store" });
    if (!response.ok) {
      $("phase").textContent = response.status === 403 || response.status === 404
        ? (await response.text()).replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim()
        : "The table could not be read; trying again.";
      return false;
    }
    show(await response.json());
    return true;
  }

  function show(state) {
    const first = table.state === null;
    table.state = state;
    table.updates += 1;
    document.title = `${state.title} #${state.match} · warhost`;
    $("title").textContent = `${state.title} · match ${state.match}`;
    $("phase").textContent = state.status === "active" || state.status === "paused"
      ? `${state.phase}${state.status === "paused" ? " (paused)" : ""}` : `${state.phase} · ${state.status}`;
    $("deadline").textContent = deadlineText(state);
    $("notes").textContent = state.notes.join(" ");
    list($("seats"), state.seats, (item, seat) => {
      item.textContent = `${seat.name}: ${seat.state}`;
      item.className = seat.state === "to choose" ? "owes" : "";
    });
    list($("log"), state.log, (item, line) => { item.textContent = line; });
    if (state.seat) {
      $("yours").hidden = false;
      $("yours-heading").textContent = `Your seat: ${state.seat.name}`;
      const panel = $("panel");
      panel.alt = state.seat.alt;
      panel.src = new URL(state.seat.panel, location.origin + base + "/").href;
      list($("facts"), state.seat.facts, (item, fact) => { item.textContent = fact; });
    }
    const frames = state.frames.length;
    slider.max = String(Math.max(0, frames - 1));
    slider.disabled = frames < 2;
    if (frames === 0) {
      map.alt = "No map yet: the match has not started.";
      return;
    }
    if (table.following || table.frame >= frames) showFrame(frames - 1);
    else showFrame(table.frame);
    if (first) fitSoon();
  }

  function list(element, items, fill) {
    element.replaceChildren(...items.map((value) => {
      const item = document.createElement("li");
      fill(item, value);
      return item;
    }));
  }

  function deadlineText(state) {
    if (state.status === "paused") return "Paused: the deadline waits.";
    if (!state.deadline) return state.waiting.length ? `Waiting for ${state.waiting.join(", ")}.` : "";
    const due = new Date(state.deadline);
    const when = due.toLocaleString(undefined, { weekday: "short", day: "numeric", month: "short",
      hour: "2-digit", minute: "2-digit", timeZoneName: "short" });
    const minutes = Math.round((due - Date.now()) / 60000);
    const left = minutes <= 0 ? "due now" : minutes < 60 ? `in ${minutes} min`
      : `in ${Math.floor(minutes / 60)} h ${minutes % 60} min`;
    const who = state.waiting.length ? ` Waiting for ${state.waiting.join(", ")}.` : "";
    return `Deadline: ${when} (${left}).${who}`;
  }

  function showFrame(index) {
    const frames = table.state.frames;
    table.frame = index;
    table.following = index === frames.length - 1;
    const frame = frames[index];
    slider.value = String(index);
    const label = `${index + 1} of ${frames.length}: ${frame.label}${table.following ? " (latest)" : ""}`;
    slider.setAttribute("aria-valuetext", label);
    $("frame-label").textContent = label;
    $("live").disabled = table.following;
    if (map.getAttribute("src") !== frame.map) map.src = frame.map;
    map.alt = frame.alt;
  }

  slider.addEventListener("input", () => showFrame(Number(slider.value)));
  $("live").addEventListener("click", () => showFrame(table.state.frames.length - 1));

  // ---------------------------------------------------------------- following the match

  function follow() {
    const events = new EventSource(base + "/events");
    events.addEventListener("version", (event) => {
      $("connection").textContent = "Live: the table follows the match.";
      if (!table.state || Number(event.data) > table.state.version) load();
    });
    events.addEventListener("error", () => {
      $("connection").textContent = "Reconnecting…";
    });
  }

  // ---------------------------------------------------------------- pan and zoom

  const view = table.view;
  const pointers = new Map();
  let pinch = null, frameRequested = false;

  function minScale() {
    const width = map.naturalWidth || 1;
    const fit = Math.min(viewport.clientWidth / width, 1);
    return Math.max(fit, LEGIBLE_PX / MAP_TEXT_PX);
  }

  function clamp() {
    const width = (map.naturalWidth || 0) * view.scale, height = (map.naturalHeight || 0) * view.scale;
    const room = { x: viewport.clientWidth - width, y: viewport.clientHeight - height };
    view.x = room.x >= 0 ? room.x / 2 : Math.min(0, Math.max(room.x, view.x));
    view.y = room.y >= 0 ? 0 : Math.min(0, Math.max(room.y, view.y));
  }

  function paint() {
    if (frameRequested) return;
    frameRequested = true;
    requestAnimationFrame(() => {
      frameRequested = false;
      clamp();
      map.style.transform = `translate(${view.x}px, ${view.y}px) scale(${view.scale})`;
      $("zoom-level").textContent = `${Math.round(view.scale * 100)}%`;
    });
  }

  function zoomAt(factor, x, y) {
    const scale = Math.min(MAX_SCALE, Math.max(minScale(), view.scale * factor));
    view.x = x - (x - view.x) * (scale / view.scale);
    view.y = y - (y - view.y) * (scale / view.scale);
    view.scale = scale;
    paint();
  }

  function centre() {
    return { x: viewport.clientWidth / 2, y: viewport.clientHeight / 2 };
  }

  function fit() {
    view.scale = minScale();
    view.x = (viewport.clientWidth - map.naturalWidth * view.scale) / 2;
    view.y = 0;
    paint();
  }

  function fitSoon() {
    if (map.complete && map.naturalWidth) fit();
    else map.addEventListener("load", fit, { once: true });
  }

  function local(event) {
    const box = viewport.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  }

  viewport.addEventListener("pointerdown", (event) => {
    viewport.setPointerCapture(event.pointerId);
    pointers.set(event.pointerId, local(event));
    viewport.classList.add("dragging");
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { distance: Math.hypot(a.x - b.x, a.y - b.y) || 1 };
    }
  });
  viewport.addEventListener("pointermove", (event) => {
    const before = pointers.get(event.pointerId);
    if (!before) return;
    const now = local(event);
    pointers.set(event.pointerId, now);
    if (pointers.size === 1) {
      view.x += now.x - before.x;
      view.y += now.y - before.y;
      paint();
    } else if (pointers.size === 2 && pinch) {
      const [a, b] = [...pointers.values()];
      const distance = Math.hypot(a.x - b.x, a.y - b.y) || 1;
      zoomAt(distance / pinch.distance, (a.x + b.x) / 2, (a.y + b.y) / 2);
      pinch.distance = distance;
    }
  });
  const release = (event) => {
    pointers.delete(event.pointerId);
    if (pointers.size < 2) pinch = null;
    if (!pointers.size) viewport.classList.remove("dragging");
  };
  viewport.addEventListener("pointerup", release);
  viewport.addEventListener("pointercancel", release);
  viewport.addEventListener("wheel", (event) => {
    event.preventDefault();
    const at = local(event);
    zoomAt(Math.exp(-event.deltaY * 0.0015), at.x, at.y);
  }, { passive: false });
  viewport.addEventListener("keydown", (event) => {
    const step = 60, c = centre();
    const moves = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    if (moves[event.key]) {
      view.x += moves[event.key][0];
      view.y += moves[event.key][1];
      paint();
    } else if (event.key === "+" || event.key === "=") zoomAt(1.25, c.x, c.y);
    else if (event.key === "-" || event.key === "_") zoomAt(0.8, c.x, c.y);
    else if (event.key === "0") fit();
    else return;
    event.preventDefault();
  });
  $("zoom-in").addEventListener("click", () => { const c = centre(); zoomAt(1.25, c.x, c.y); });
  $("zoom-out").addEventListener("click", () => { const c = centre(); zoomAt(0.8, c.x, c.y); });
  $("zoom-fit").addEventListener("click", fit);
  map.addEventListener("load", paint);
  window.addEventListener("resize", paint);

  load().then((ok) => { if (ok) follow(); });
})();
