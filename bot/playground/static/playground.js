// The playground page: shows the fake Discord's channels and messages as one of the local
// people sees them, live over a WebSocket, and acts through the playground's API (which goes
// through the fake's own user simulation, limits and deadline included). No polling.

const $ = (selector, root = document) => root.querySelector(selector);
const AVATAR_COLOURS = ["#c2410c", "#2563eb", "#15803d", "#9333ea", "#b91c1c"];

const state = {
  me: null, // the id of the person we act as
  channel: null, // the id of the channel shown
  users: [],
  channels: [],
  bot: "",
  unread: new Set(),
  elements: new Map(), // message id -> element
  more: false,
  buffer: null, // events for the channel being loaded
  revision: 0,
  socket: null,
  retry: 500,
  suggestTimer: null,
  suggestAbort: null,
  highlighted: -1,
  items: [],
};

// ----- talking to the server -----

async function getJSON(path, params = {}, signal = undefined) {
  const url = new URL(path, location.origin);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  const response = await fetch(url, { signal });
  return response.json();
}

async function post(path, body) {
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    return await response.json();
  } catch (error) {
    return { ok: false, error: "The playground is not answering (was it stopped?)." };
  }
}

// The socket carries what changes for the person we act as; it resolves once open.
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws?user=${state.me}`);
  const previous = state.socket;
  state.socket = socket;
  if (previous) previous.close();
  return new Promise((resolve) => {
    socket.addEventListener("open", () => {
      state.retry = 500;
      if (document.body.dataset.connected === "false") loadChannel(); // missed while away
      setConnected(true);
      resolve();
    });
    socket.addEventListener("message", (event) => handle(JSON.parse(event.data)));
    socket.addEventListener("close", () => {
      if (state.socket !== socket) return; // replaced on purpose
      setConnected(false);
      setTimeout(connect, state.retry);
      state.retry = Math.min(state.retry * 2, 10000);
    });
  });
}

function setConnected(up) {
  document.body.dataset.connected = String(up);
  const label = $("#connection");
  label.textContent = up ? "live" : "reconnecting…";
  label.classList.toggle("down", !up);
}

function handle(event) {
  if (event.type === "message") {
    const message = event.message;
    if (message.channel !== state.channel) {
      if (!message.deleted) markUnread(message.channel);
    } else if (state.buffer) {
      state.buffer.push(message); // applied over the channel being loaded
    } else {
      upsert(message);
    }
  } else if (event.type === "channels") {
    state.channels = event.channels;
    if (!state.channels.some((c) => c.id === state.channel)) state.channel = state.channels[0].id;
    renderChannels();
  } else if (event.type === "notice") {
    addNotice(event.notice);
  } else if (event.type === "resync") {
    loadChannel();
  }
}

// ----- the sidebar -----

function avatar(name, index) {
  const span = document.createElement("span");
  span.className = "avatar";
  span.textContent = (name || "?").slice(0, 1).toUpperCase();
  span.style.background = AVATAR_COLOURS[index % AVATAR_COLOURS.length];
  return span;
}

function renderPeople() {
  const box = $("#people");
  box.replaceChildren();
  state.users.forEach((user, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.user = user.id;
    button.setAttribute("aria-pressed", String(user.id === state.me));
    button.append(avatar(user.name, index), user.name + (user.owner ? " (server owner)" : ""));
    button.addEventListener("click", () => switchUser(user.id));
    box.append(button);
  });
}

function renderChannels() {
  const list = $("#channels");
  list.replaceChildren();
  for (const channel of state.channels) {
    const item = document.createElement("li");
    item.className = channel.thread ? "thread" : "text";
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.channel = channel.id;
    button.setAttribute("aria-current", String(channel.id === state.channel));
    button.classList.toggle("unread", state.unread.has(channel.id));
    const sigil = document.createElement("span");
    sigil.className = "sigil";
    sigil.textContent = channel.thread ? "↳" : "#";
    button.append(sigil, channel.name + (channel.archived ? " (archived)" : ""));
    button.addEventListener("click", () => switchChannel(channel.id));
    item.append(button);
    list.append(item);
  }
  const current = state.channels.find((c) => c.id === state.channel);
  $("#channel-name").textContent = current ? (current.thread ? "↳ " : "# ") + current.name : "";
}

function markUnread(channelId) {
  if (state.unread.has(channelId)) return;
  state.unread.add(channelId);
  renderChannels();
}

// A link to a channel or a message (as Discord's own links) opens it here, never outside.
async function switchChannel(channelId, messageId) {
  if (!state.channels.some((c) => c.id === channelId)) return;
  state.channel = channelId;
  state.unread.delete(channelId);
  renderChannels();
  await loadChannel();
  const shown = messageId && document.querySelector(`article.message[data-id="${messageId}"]`);
  if (shown) shown.scrollIntoView({ block: "center" });
}

async function switchUser(userId) {
  state.me = userId;
  renderPeople();
  hideSuggestions();
  await connect(); // a socket that sees this person's private messages
  await loadChannel();
}

// ----- messages -----

// Events that arrive while a channel loads are kept and applied over it, in order: the
// channel then shows the newest version of every message.
async function loadChannel() {
  const channel = state.channel;
  const me = state.me;
  state.buffer = [];
  const data = await getJSON("/api/messages", { user: me, channel });
  if (channel !== state.channel || me !== state.me) return; // switched meanwhile
  const box = $("#messages");
  box.replaceChildren();
  state.elements.clear();
  state.more = data.more;
  if (data.more) box.append(olderButton());
  for (const message of data.messages) upsert(message, false);
  const pending = state.buffer || [];
  state.buffer = null;
  for (const message of pending) if (message.channel === state.channel) upsert(message, false);
  box.scrollTop = box.scrollHeight;
}

function olderButton() {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "button secondary older";
  button.textContent = "Load older messages";
  button.addEventListener("click", async () => {
    const first = [...state.elements.keys()].sort(compareIds)[0];
    const data = await getJSON("/api/messages", { user: state.me, channel: state.channel, before: first });
    button.remove();
    const box = $("#messages");
    const height = box.scrollHeight;
    for (const message of data.messages) upsert(message, false);
    if (data.more) box.prepend(olderButton());
    box.scrollTop += box.scrollHeight - height;
  });
  return button;
}

function compareIds(a, b) {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function upsert(message, follow = true) {
  const box = $("#messages");
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 80;
  const old = state.elements.get(message.id);
  if (message.deleted) {
    if (old) old.remove();
    state.elements.delete(message.id);
  } else {
    const element = buildMessage(message);
    element.dataset.rev = String(old ? Number(old.dataset.rev) + 1 : 1);
    if (old) {
      old.replaceWith(element);
    } else {
      const later = [...state.elements.entries()]
        .filter(([id]) => compareIds(id, message.id) > 0)
        .sort((a, b) => compareIds(a[0], b[0]))[0];
      if (later) box.insertBefore(element, later[1]);
      else box.append(element);
    }
    state.elements.set(message.id, element);
  }
  state.revision += 1;
  document.body.dataset.revision = String(state.revision);
  if (follow && atBottom) box.scrollTop = box.scrollHeight;
}

function buildMessage(message) {
  const article = document.createElement("article");
  article.className = "message";
  article.classList.toggle("ephemeral", message.ephemeral);
  article.classList.toggle("loading", message.loading);
  article.dataset.id = message.id;
  if (message.used) {
    const used = document.createElement("div");
    used.className = "used";
    const command = document.createElement("span");
    command.className = "cmd";
    command.textContent = "/" + message.used.command;
    used.append(`↳ ${message.used.user} used `, command);
    article.append(used);
  }
  const userIndex = state.users.findIndex((u) => u.name === message.author);
  article.append(avatar(message.author, userIndex < 0 ? 4 : userIndex));
  const head = document.createElement("div");
  head.className = "head";
  const author = document.createElement("span");
  author.className = "author";
  author.textContent = message.author;
  head.append(author);
  if (message.bot) {
    const tag = document.createElement("span");
    tag.className = "app-tag";
    tag.textContent = "APP";
    head.append(tag);
  }
  const time = document.createElement("time");
  time.dateTime = message.timestamp;
  time.textContent = new Date(message.timestamp).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  head.append(time);
  if (message.edited) {
    const edited = document.createElement("span");
    edited.className = "edited";
    edited.textContent = "(edited)";
    head.append(edited);
  }
  const body = document.createElement("div");
  body.className = "body";
  body.innerHTML = message.html; // built and escaped by the playground's renderer
  article.append(head, body);
  if (message.thread) {
    const chip = document.createElement("a");
    chip.href = "#";
    chip.className = "thread-chip";
    chip.dataset.channel = message.thread.id;
    chip.textContent = `↳ ${message.thread.name}`;
    article.append(chip);
  }
  if (message.ephemeral) {
    const note = document.createElement("div");
    note.className = "ephemeral-note";
    const dismiss = document.createElement("button");
    dismiss.type = "button";
    dismiss.className = "dismiss";
    dismiss.textContent = "Dismiss message";
    note.append("Only you can see this · ", dismiss);
    article.append(note);
  }
  for (const node of article.querySelectorAll("[data-accent]")) {
    node.style.setProperty("--accent", node.dataset.accent);
  }
  formatTimes(article);
  return article;
}

// ----- acting on messages -----

async function act(path, body, control, article) {
  control.disabled = true;
  control.classList.add("busy");
  const result = await post(path, { user: state.me, ...body });
  control.disabled = false;
  control.classList.remove("busy");
  if (!result.ok) {
    showFailure(article, result.error || "Something went wrong.");
    if (!result.failed) addNotice({ kind: "refused", title: result.error, detail: [] });
  }
  if (result.modal) openModal(result.modal);
  return result;
}

function showFailure(article, text) {
  if (!article || !article.isConnected) return;
  let note = $(".failed-note", article);
  if (!note) {
    note = document.createElement("div");
    note.className = "failed-note";
    article.append(note);
  }
  note.textContent = "⚠ " + text;
}

function onMessagesClick(event) {
  const target = event.target;
  const article = target.closest(".message");
  const button = target.closest('[data-action="click"]');
  if (button && article) {
    act("/api/click", { message: article.dataset.id, custom_id: button.dataset.customId }, button, article);
    return;
  }
  const many = target.closest('[data-action="select-many"]');
  if (many && article) {
    const details = many.closest(".multi-select");
    const values = [...details.querySelectorAll("input:checked")].map((box) => box.value);
    const low = Number(details.dataset.min);
    const high = Number(details.dataset.max);
    if (values.length < low || values.length > high) {
      showFailure(article, `Choose ${low} to ${high} options.`);
      return;
    }
    details.open = false;
    act("/api/select", { message: article.dataset.id, custom_id: details.dataset.customId, values }, many, article);
    return;
  }
  const channelLink = target.closest("[data-channel]");
  if (channelLink) {
    event.preventDefault();
    switchChannel(channelLink.dataset.channel, channelLink.dataset.message);
    return;
  }
  const command = target.closest("[data-command]");
  if (command) {
    event.preventDefault();
    const input = $("#command");
    input.value = `/${command.dataset.command} `;
    input.focus();
    scheduleSuggest();
    return;
  }
  const hidden = target.closest(".spoiler, .spoiler-box");
  if (hidden && !hidden.classList.contains("revealed")) {
    event.preventDefault();
    hidden.classList.add("revealed");
    return;
  }
  if (target.closest(".dismiss") && article) {
    state.elements.delete(article.dataset.id);
    article.remove();
  }
}

function onMessagesChange(event) {
  const select = event.target.closest('select[data-action="select"]');
  const article = event.target.closest(".message");
  if (select && article) {
    act("/api/select", { message: article.dataset.id, custom_id: select.dataset.customId, values: [select.value] }, select, article);
  }
}

// ----- modals -----

let openForm = null;

function openModal(modal) {
  openForm = modal.interaction;
  $("#modal-title").textContent = modal.title;
  $("#modal-body").innerHTML = modal.html; // built and escaped by the playground's renderer
  $("#modal-error").hidden = true;
  $("#modal").showModal();
}

async function submitModal(event) {
  event.preventDefault();
  const values = {};
  for (const field of $("#modal-body").querySelectorAll("[name]")) {
    values[field.name] = field.multiple ? [...field.selectedOptions].map((o) => o.value) : field.value;
  }
  const submit = $('#modal-form button[type="submit"]');
  submit.disabled = true;
  const result = await post("/api/modal", { user: state.me, interaction: openForm, values });
  if (result.ok || result.failed) $("#modal").close();
  if (!result.ok) {
    const error = $("#modal-error");
    error.textContent = result.error;
    error.hidden = result.failed;
    if (result.failed) addNotice({ kind: "failed", title: result.error, detail: [] });
  }
  submit.disabled = false;
  if (result.modal) openModal(result.modal);
}

// ----- notices -----

function addNotice(notice) {
  const box = $("#notices");
  const item = document.createElement("div");
  item.className = `notice ${notice.kind}`;
  const title = document.createElement("div");
  title.className = "title";
  title.textContent = notice.title;
  item.append(title);
  if (notice.detail && notice.detail.length) {
    const list = document.createElement("ul");
    for (const line of notice.detail) {
      const entry = document.createElement("li");
      entry.textContent = line;
      list.append(entry);
    }
    item.append(list);
  }
  const close = document.createElement("button");
  close.type = "button";
  close.className = "close";
  close.setAttribute("aria-label", "Dismiss");
  close.textContent = "×";
  close.addEventListener("click", () => item.remove());
  item.append(close);
  box.prepend(item);
  while (box.children.length > 4) box.lastElementChild.remove();
}

// ----- the command box -----

function scheduleSuggest() {
  clearTimeout(state.suggestTimer);
  state.suggestTimer = setTimeout(fetchSuggestions, 120);
}

async function fetchSuggestions() {
  const text = $("#command").value;
  if (!text.startsWith("/")) {
    hideSuggestions();
    return;
  }
  if (state.suggestAbort) state.suggestAbort.abort();
  const abort = new AbortController();
  state.suggestAbort = abort;
  let data;
  try {
    data = await getJSON("/api/suggest", { user: state.me, channel: state.channel, text }, abort.signal);
  } catch (error) {
    return; // replaced by a newer request
  }
  if ($("#command").value !== text) return;
  renderSuggestions(data.items, data.hint);
}

function renderSuggestions(items, hint) {
  const list = $("#suggestions");
  list.replaceChildren();
  state.items = items;
  state.highlighted = -1;
  items.forEach((item, index) => {
    const entry = document.createElement("li");
    entry.setAttribute("role", "option");
    entry.dataset.index = String(index);
    if (!item.text) entry.className = "info";
    const label = document.createElement("span");
    label.className = "label";
    label.textContent = item.label;
    const detail = document.createElement("span");
    detail.className = "detail";
    detail.textContent = item.detail;
    entry.append(label, detail);
    entry.addEventListener("mousedown", (event) => {
      event.preventDefault();
      pick(index);
    });
    list.append(entry);
  });
  if (hint) {
    const entry = document.createElement("li");
    entry.className = "info";
    entry.textContent = hint;
    list.append(entry);
  }
  list.hidden = list.children.length === 0;
}

function hideSuggestions() {
  $("#suggestions").hidden = true;
  state.items = [];
  state.highlighted = -1;
}

function pick(index) {
  const item = state.items[index];
  if (!item || !item.text) return;
  const input = $("#command");
  input.value = item.text;
  input.focus();
  scheduleSuggest();
}

function highlight(step) {
  const choosable = state.items.map((item, index) => (item.text ? index : -1)).filter((i) => i >= 0);
  if (!choosable.length) return;
  const at = choosable.indexOf(state.highlighted);
  const next = choosable[(at + step + choosable.length) % choosable.length];
  state.highlighted = next;
  for (const entry of $("#suggestions").children) {
    entry.setAttribute("aria-selected", String(entry.dataset.index === String(next)));
  }
}

function onCommandKey(event) {
  const open = !$("#suggestions").hidden;
  if (event.key === "ArrowDown" && open) {
    event.preventDefault();
    highlight(1);
  } else if (event.key === "ArrowUp" && open) {
    event.preventDefault();
    highlight(-1);
  } else if (event.key === "Tab" && open) {
    event.preventDefault();
    const first = state.items.findIndex((item) => item.text);
    pick(state.highlighted >= 0 ? state.highlighted : first);
  } else if (event.key === "Enter" && open && state.highlighted >= 0) {
    event.preventDefault();
    pick(state.highlighted);
  } else if (event.key === "Escape") {
    hideSuggestions();
  }
}

async function sendCommand(event) {
  event.preventDefault();
  const input = $("#command");
  const text = input.value.trim();
  const error = $("#composer-error");
  error.hidden = true;
  if (!text) return;
  if (!text.startsWith("/")) {
    error.textContent = "The bot only answers slash commands here: type / to see them.";
    error.hidden = false;
    return;
  }
  hideSuggestions();
  const send = $('#composer button[type="submit"]');
  send.disabled = true;
  const result = await post("/api/slash", { user: state.me, channel: state.channel, text });
  send.disabled = false;
  if (result.ok || result.failed) input.value = "";
  if (!result.ok) {
    error.textContent = result.error;
    error.hidden = false;
  }
  if (result.modal) openModal(result.modal);
}

// ----- timestamps, shown in local time like Discord's client does -----

const TIME_STYLES = {
  t: { timeStyle: "short" },
  T: { timeStyle: "medium" },
  d: { dateStyle: "short" },
  D: { dateStyle: "long" },
  f: { dateStyle: "long", timeStyle: "short" },
  F: { dateStyle: "full", timeStyle: "short" },
};

function relativeTime(seconds) {
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  const units = [["year", 31536000], ["month", 2592000], ["day", 86400], ["hour", 3600], ["minute", 60]];
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(Math.round(seconds), "second");
}

function formatTimes(root) {
  for (const node of root.querySelectorAll("time[data-ts]")) {
    const when = Number(node.dataset.ts);
    const style = node.dataset.style;
    node.title = new Date(when * 1000).toLocaleString();
    node.textContent = style === "R"
      ? relativeTime(when - Date.now() / 1000)
      : new Intl.DateTimeFormat(undefined, TIME_STYLES[style] || TIME_STYLES.f).format(new Date(when * 1000));
  }
}

// ----- start -----

async function start() {
  const data = await getJSON("/api/state");
  state.users = data.users;
  state.channels = data.channels;
  state.bot = data.bot;
  state.me = data.users[0].id;
  state.channel = data.channels[0].id;
  $("#server-name").textContent = data.guild.name;
  const limits = [`the bot must answer within ${data.limits.ack_timeout} s`];
  if (data.limits.channel_writes) {
    const [writes, seconds] = data.limits.channel_writes;
    limits.push(`${writes} message writes per ${seconds} s in a channel`);
  }
  $("#limits").textContent = `Discord's limits apply: ${limits.join(", ")}, and its sizes and counts.`;
  renderPeople();
  renderChannels();
  for (const notice of data.notices) addNotice(notice);
  await connect();
  await loadChannel();

  $("#messages").addEventListener("click", onMessagesClick);
  $("#messages").addEventListener("change", onMessagesChange);
  $("#composer").addEventListener("submit", sendCommand);
  $("#command").addEventListener("input", scheduleSuggest);
  $("#command").addEventListener("keydown", onCommandKey);
  $("#command").addEventListener("focus", scheduleSuggest);
  $("#command").addEventListener("blur", () => setTimeout(hideSuggestions, 150));
  $("#modal-form").addEventListener("submit", submitModal);
  $("#modal-cancel").addEventListener("click", () => $("#modal").close());
  // Relative timestamps ("in 30 seconds") move with the clock; nothing else runs when idle.
  setInterval(() => formatTimes($("#messages")), 15000);
  document.body.dataset.ready = "true";
}

start();
