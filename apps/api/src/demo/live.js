// The live layout demo: sign in, open a project, and watch its tree re-render as it changes,
// whoever changes it; undo the last change; add members, and see who else has the project open
// and where (a marker on the block or content each present account is at). Plain DOM and
// fetch, no framework, no build step.
// Every text from the service is put in with textContent, never parsed as this page's HTML.

/** What the page knows; one project is open at a time. */
const state = {
  token: null,
  /** The signed-in account (`_id`, `username`). */
  me: null,
  /** The caller's role in the open project. */
  role: null,
  /** Who is present in the open project, as its last `presence` event said. */
  present: [],
  /** The open project's id, its last tree read, and that read's ETag (`"r<revision>"`). */
  projectId: null,
  project: null,
  etag: null,
  /** The last revision the event stream gave (or the one read first): where a new one starts. */
  lastEventId: null,
  source: null,
  connection: 'connecting…',
  retryMs: 1000,
  reconnectTimer: null,
  /** The read in progress, and whether another change came in while it ran. */
  loading: null,
  loadAgain: false,
};

const $ = (id) => document.getElementById(id);

/** An answer other than 2xx or 304, with its problem+json body when it has one. */
class ApiError extends Error {
  constructor(status, problem) {
    const title = problem?.title ?? `HTTP ${status}`;
    super(problem?.detail ? `${title}: ${problem.detail}` : title);
    this.status = status;
  }
}

/** One request to the service (same origin), with the token once there is one. */
async function api(method, path, { body, headers = {} } = {}) {
  // The page keeps its own copy and sends If-None-Match itself: the browser's cache stays out.
  const init = { method, headers: { ...headers }, cache: 'no-store' };
  if (state.token) init.headers.Authorization = `Bearer ${state.token}`;
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const type = response.headers.get('Content-Type') ?? '';
  const data = type.includes('json') ? await response.json() : undefined;
  if (!response.ok && response.status !== 304) throw new ApiError(response.status, data);
  return { status: response.status, etag: response.headers.get('ETag'), data };
}

/** Shows a sentence above everything; an error in red. */
function notify(text, isError = false) {
  const notice = $('notice');
  notice.textContent = text;
  notice.classList.toggle('error', isError);
  notice.hidden = text === '';
}

/** A failure shown as the notice; a token that is no longer valid leads back to the form. */
function report(error, prefix = '') {
  if (error instanceof ApiError && error.status === 401 && state.token) {
    signOut();
    notify('Signed out (the token is no longer valid): sign in again.', true);
    return;
  }
  notify(`${prefix}${error.message ?? String(error)}`, true);
}

/** Runs an action of a button or form: its failure becomes the notice, not an uncaught error. */
async function run(action) {
  try {
    notify('');
    await action();
  } catch (error) {
    report(error);
  }
}

function show(section) {
  for (const id of ['sign-in-section', 'projects-section', 'project-section']) {
    $(id).hidden = id !== section;
  }
}

/** An element with a class and children (strings become text nodes). */
function el(tag, className, ...children) {
  const element = document.createElement(tag);
  if (className) element.className = className;
  element.append(...children);
  return element;
}

/** Text as HTML, for what the page sends (a text content's `html`). */
function escapeHtml(text) {
  const map = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
  return text.replace(/[&<>"']/g, (character) => map[character]);
}

/**
 * The text of stored HTML. DOMParser's document is inert (no script runs, nothing loads) and
 * only its text is read: the stored markup never becomes part of this page.
 */
function textOf(html) {
  return new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
}

// --- Signing in --------------------------------------------------------------------------------

function credentials() {
  return { username: $('username').value, password: $('password').value };
}

async function signIn() {
  const { data } = await api('POST', '/accounts/auth/token', { body: credentials() });
  // Kept in memory only: a reload signs out.
  state.token = data.token;
  $('password').value = '';
  state.me = (await api('GET', '/accounts/auth/me')).data;
  await showProjects();
}

async function signUp() {
  await api('POST', '/accounts', { body: credentials() });
  await signIn();
}

function signOut() {
  closeProject();
  state.token = null;
  show('sign-in-section');
}

// --- Picking a project -------------------------------------------------------------------------

async function showProjects() {
  closeProject();
  const { data } = await api('GET', '/projects?limit=100');
  const list = $('projects');
  list.replaceChildren(
    ...data.map((project) => {
      const open = el('button', '', project.title);
      open.type = 'button';
      open.addEventListener('click', () => run(() => openProject(project._id, project.role)));
      return el('li', '', open, ` (revision ${project.revision}, ${project.role})`);
    }),
  );
  if (data.length === 0) list.append(el('li', 'empty', 'No project yet.'));
  show('projects-section');
}

/** A project with a block, a row and a 12-wide column: somewhere to add text right away. */
async function newProject() {
  const project = (
    await api('POST', '/projects', { body: { title: $('new-project-title').value } })
  ).data;
  const block = (
    await api('POST', `/projects/${project._id}/blocks`, { body: { description: 'Intro' } })
  ).data;
  const blockPath = `/projects/${project._id}/blocks/${block._id}`;
  const row = (await api('POST', `${blockPath}/rows`, { body: {} })).data;
  await api('POST', `${blockPath}/rows/${row._id}/columns`, { body: { size: 12 } });
  await openProject(project._id, 'owner');
}

// --- The open project --------------------------------------------------------------------------

async function openProject(projectId, role) {
  closeProject();
  state.projectId = projectId;
  state.role = role;
  await refresh();
  if (state.projectId !== projectId) return;
  await loadMembers(projectId);
  // Where the stream starts: right after the revision just read, so nothing is missed between.
  state.lastEventId = String(state.project.revision);
  show('project-section');
  connect();
}

function closeProject() {
  $('share-link').hidden = true;
  state.source?.close();
  clearTimeout(state.reconnectTimer);
  Object.assign(state, { projectId: null, project: null, etag: null, lastEventId: null });
  Object.assign(state, { source: null, retryMs: 1000, reconnectTimer: null });
  Object.assign(state, { role: null, present: [] });
}

/**
 * Reads the project again, one read at a time: changes that come in during a read make one more
 * read afterwards, not one each.
 */
function refresh() {
  if (state.loading) {
    state.loadAgain = true;
    return state.loading;
  }
  state.loading = (async () => {
    try {
      do {
        state.loadAgain = false;
        await load();
      } while (state.loadAgain);
    } finally {
      state.loading = null;
    }
  })();
  return state.loading;
}

/** The project's tree, unless it is still the one the page has (304), and its last revisions. */
async function load() {
  const projectId = state.projectId;
  if (projectId === null) return;
  const headers = state.etag ? { 'If-None-Match': state.etag } : {};
  const answer = await api('GET', `/projects/${projectId}`, { headers });
  if (state.projectId !== projectId || answer.status === 304) return;
  state.project = answer.data;
  state.etag = answer.etag;
  render();
  await loadRevisions(projectId);
}

async function loadRevisions(projectId) {
  const { data } = await api('GET', `/projects/${projectId}/revisions?limit=5`);
  if (state.projectId !== projectId) return;
  $('revisions').replaceChildren(
    ...data.map((revision) => {
      const time = new Date(revision.createdAt).toLocaleTimeString();
      // Its author, or nobody once that account is deleted.
      const by = revision.author ? ` by ${revision.author.username}` : '';
      return el('li', '', `r${revision.revision} ${revision.operation} at ${time}${by}`);
    }),
  );
}

function render() {
  const project = state.project;
  $('project-title').textContent = project.title;
  $('undo').disabled = project.revision <= 1;
  renderStatus();
  const blocks = project.blocks.map((block) => {
    const path = `/projects/${project._id}/blocks/${block._id}`;
    const title = el('h3', '', block.description || 'Block');
    title.addEventListener('click', () => run(() => sayWhere(path)));
    return el(
      'article',
      'block',
      title,
      markersOf(path),
      ...block.rows.map((row) =>
        el(
          'div',
          'row',
          ...row.columns.map((column) => renderColumn(`${path}/rows/${row._id}`, column)),
        ),
      ),
    );
  });
  if (blocks.length === 0) blocks.push(el('p', 'empty', 'This project has no block yet.'));
  $('tree').replaceChildren(...blocks);
  renderPresence();
}

function renderColumn(rowPath, column) {
  const path = `${rowPath}/columns/${column._id}`;
  const element = el(
    'div',
    'column',
    el('div', 'column-size', `size ${column.size}`),
    ...column.contents.map((content) => renderContent(`${path}/contents/${content._id}`, content)),
  );
  // CSSOM, not a style attribute: allowed by the page's content security policy.
  element.style.gridColumn = `span ${column.size}`;
  return element;
}

function renderContent(path, content) {
  // A text's words; of an image or a video, what names it (quotes and empty contents: none).
  const data = content.data ?? {};
  const text = content.type === 'text' ? textOf(data.html ?? '') : data.alt || data.url || '';
  const element = el('div', 'content');
  if (content.type !== 'text') element.append(el('span', 'content-type', content.type));
  element.append(text);
  element.dataset.id = content._id;
  element.dataset.path = path;
  element.addEventListener('click', () => run(() => sayWhere(path)));
  // The markers of who is here sit beside the content, not in its text.
  return el('div', 'content-slot', markersOf(path), element);
}

/** Where the markers of the accounts present at `path` go. */
function markersOf(path) {
  const markers = el('div', 'markers');
  markers.dataset.path = path;
  return markers;
}

// --- Who is here -------------------------------------------------------------------------------

/** What a location is, in words: the kind of node at the end of its path. */
function placeOf(location) {
  if (location === null) return 'in the project';
  const kinds = { blocks: 'a block', rows: 'a row', columns: 'a column', contents: 'a content' };
  const segments = location.split('/');
  return segments.length > 3 ? `at ${kinds[segments.at(-2)]}` : 'in the project';
}

/**
 * The present accounts (the project's `presence` events), listed and marked on the block or
 * content each said it is at; the page's own account too.
 */
function renderPresence() {
  const mine = (entry) => entry.account._id === state.me?._id;
  $('present').replaceChildren(
    ...state.present.map((entry) => {
      const name = `${entry.account.username}${mine(entry) ? ' (you)' : ''}`;
      const item = el(
        'li',
        mine(entry) ? 'me' : '',
        `${name}: ${entry.state} ${placeOf(entry.location)}`,
      );
      return item;
    }),
  );
  for (const markers of document.querySelectorAll('#tree .markers')) {
    const here = state.present.filter((entry) => entry.location === markers.dataset.path);
    markers.replaceChildren(
      ...here.map((entry) => {
        const marker = el('span', `presence-marker ${entry.state}`, entry.account.username);
        marker.title = `${entry.account.username} is ${entry.state} here`;
        return marker;
      }),
    );
    markers.parentElement.classList.toggle('here', here.some(mine));
  }
}

/**
 * Says where this page's account is: every stream of the project, on every instance, gets it
 * as a `presence` event (this page's too, which then marks it). An editor is editing there, a
 * viewer viewing.
 */
async function sayWhere(location) {
  const projectId = state.projectId;
  const doing = state.role === 'viewer' ? 'viewing' : 'editing';
  await api('PUT', `/projects/${projectId}/presence`, { body: { location, state: doing } });
}

// --- Members -----------------------------------------------------------------------------------

async function loadMembers(projectId) {
  const { data } = await api('GET', `/projects/${projectId}/members`);
  if (state.projectId !== projectId) return;
  $('members').replaceChildren(
    ...data.map((member) =>
      el(
        'li',
        member.account._id === state.me?._id ? 'me' : '',
        `${member.account.username}: ${member.role}`,
      ),
    ),
  );
}

/** Adds an account by its username: the owner only (anyone else is told so, 403). */
async function addMember() {
  const projectId = state.projectId;
  const username = $('member-username').value;
  await api('POST', `/projects/${projectId}/members`, {
    body: { username, role: $('member-role').value },
  });
  $('member-username').value = '';
  notify(`${username} was added.`);
  await loadMembers(projectId);
}

function renderStatus() {
  const status = $('live-status');
  const revision = state.project ? ` · revision ${state.project.revision}` : '';
  status.textContent = `${state.connection}${revision}`;
  status.classList.toggle('offline', state.connection !== 'live');
}

function setConnection(connection) {
  state.connection = connection;
  renderStatus();
}

// --- Live changes ------------------------------------------------------------------------------

/**
 * Opens the project's event stream. A browser's EventSource cannot send the token, so each
 * stream is opened with a single-use ticket; the EventSource's own reconnection would reuse the
 * spent ticket (401), so on any error the page closes it and opens a new one with a new ticket,
 * starting after the last revision received (`lastEventId`; the server replays what was missed,
 * or sends `reset`). A client that can send headers may instead read
 * `GET /projects/<p>/events` with `fetch`, `Authorization: Bearer …` and `Last-Event-ID`, and
 * parse the stream itself.
 */
function connect() {
  const projectId = state.projectId;
  setConnection(state.source ? 'reconnecting…' : 'connecting…');
  openStream(projectId).catch((error) => {
    if (state.projectId !== projectId) return;
    report(error, 'Live changes unavailable, retrying: ');
    if (state.token) reconnectLater(projectId);
  });
}

async function openStream(projectId) {
  const { data } = await api('POST', `/projects/${projectId}/events/tickets`);
  if (state.projectId !== projectId) return;
  const query = new URLSearchParams({ ticket: data.ticket, lastEventId: state.lastEventId });
  const source = new EventSource(`/projects/${projectId}/events?${query}`);
  state.source = source;
  source.onopen = () => {
    state.retryMs = 1000;
    setConnection('live');
  };
  source.addEventListener('change', (event) => {
    state.lastEventId = event.lastEventId;
    const change = JSON.parse(event.data);
    // The page's own undo already shows this revision; anything else is read again.
    if (change.etag !== state.etag) void refresh().catch(reportRefresh);
  });
  source.addEventListener('presence', (event) => {
    state.present = JSON.parse(event.data).present;
    renderPresence();
  });
  source.addEventListener('reset', (event) => {
    // Some revisions are no longer kept: read the whole project, and go on after this one.
    state.lastEventId = String(JSON.parse(event.data).revision);
    void refresh().catch(reportRefresh);
  });
  source.onerror = () => {
    source.close();
    if (state.source !== source) return;
    setConnection('reconnecting…');
    reconnectLater(projectId);
  };
}

/** Tries again after a while, twice as long each time up to 30 s, the time reset once open. */
function reconnectLater(projectId) {
  clearTimeout(state.reconnectTimer);
  state.reconnectTimer = setTimeout(() => {
    if (state.projectId === projectId) connect();
  }, state.retryMs);
  state.retryMs = Math.min(state.retryMs * 2, 30_000);
}

function reportRefresh(error) {
  report(error, 'Could not read the project: ');
}

// --- Editing -----------------------------------------------------------------------------------

/** The path of the first column and of the first content, in tree order. */
function firstPaths() {
  for (const block of state.project.blocks) {
    for (const row of block.rows) {
      for (const column of row.columns) {
        const columnPath =
          `/projects/${state.projectId}/blocks/${block._id}` +
          `/rows/${row._id}/columns/${column._id}`;
        const first = column.contents[0];
        return { columnPath, contentPath: first && `${columnPath}/contents/${first._id}` };
      }
    }
  }
  return {};
}

/** A text content's body: the text as one paragraph. */
function textBody(text) {
  return { type: 'text', data: { html: `<p>${escapeHtml(text)}</p>` } };
}

// The edits below change nothing on the page themselves: the change comes back as an event,
// as anyone else's would, and the page reads the project then.
async function addText() {
  const { columnPath } = firstPaths();
  if (!columnPath) throw new Error('This project has no column to add to.');
  await api('POST', `${columnPath}/contents`, { body: textBody($('add-text-input').value) });
  $('add-text-input').value = '';
}

async function editFirst() {
  const { contentPath } = firstPaths();
  if (!contentPath) throw new Error('This project has no content to edit yet.');
  await api('PUT', contentPath, { body: textBody($('edit-first-input').value) });
  $('edit-first-input').value = '';
}

/**
 * Undo: restore the revision before the current one, if the project is still what this page
 * shows (If-Match): someone else's change in between answers 412 and changes nothing.
 */
async function undo() {
  const { projectId, project, etag } = state;
  try {
    const answer = await api(
      'POST',
      `/projects/${projectId}/revisions/${project.revision - 1}/restore`,
      {
        headers: { 'If-Match': etag },
      },
    );
    if (state.projectId !== projectId) return;
    state.project = answer.data;
    state.etag = answer.etag;
    render();
    await loadRevisions(projectId);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 412) throw error;
    notify(
      'Someone else changed the project meanwhile, so nothing was undone. Reading it ' +
        'again: press Undo once it shows the latest change to undo that one.',
      true,
    );
    await refresh();
  }
}

/**
 * Share: a link to the revision on screen, which anyone can open without an account. Its URL
 * is shown once (the service keeps only a hash of its token).
 */
async function share() {
  const { projectId, project } = state;
  const answer = await api('POST', `/projects/${projectId}/links`, {
    body: { revision: project.revision },
  });
  if (state.projectId !== projectId) return;
  const url = new URL(answer.data.url, window.location.origin).href;
  const link = $('share-link-url');
  link.href = url;
  link.textContent = url;
  $('share-link').hidden = false;
}

// --- Wiring ------------------------------------------------------------------------------------

function onSubmit(id, action) {
  $(id).addEventListener('submit', (event) => {
    event.preventDefault();
    void run(action);
  });
}

onSubmit('sign-in', signIn);
onSubmit('new-project', newProject);
onSubmit('add-text', addText);
onSubmit('edit-first', editFirst);
onSubmit('add-member', addMember);
$('sign-up-button').addEventListener('click', () => {
  if ($('sign-in').reportValidity()) void run(signUp);
});
$('back').addEventListener('click', () => run(showProjects));
$('undo').addEventListener('click', () => run(undo));
$('share').addEventListener('click', () => run(share));
$('username').focus();
