/**
 * The vocabulary bridge between the words people use and the words API descriptions use. Search by words
 * alone fails on "close the ticket" against an API that says "Update an issue": the request and the
 * operation share no word. These tables close much of that gap; they are data, documented here and tested in
 * test/runtime/search-vocabulary.test.ts:
 *
 * - ABBREVIATIONS are spelled out on both sides, in the index and in queries (repo → repository), and
 *   PHRASES (phrasal verbs: "call off" → cancel) are read as one word on both sides, so each pair is one term.
 * - ACTION_SYNONYMS map the verbs people use to the verb APIs use, and THING_SYNONYMS group the nouns that
 *   name the same kind of object. A query word also searches for its synonyms that the API's index contains,
 *   at a lower weight than the word itself (see search.ts). The generator keeps only the pairs whose target
 *   occurs in the API, so a server carries the part of the tables its API can use (search-index.json `bridge`).
 *
 * Entries are lower case; several words are a phrase whose terms are all searched. Synonyms are kept to
 * words that are near-synonyms in API requests, not merely related, because every expansion also adds
 * noise to rankings that were right.
 */

export const ABBREVIATIONS: Readonly<Record<string, string>> = {
  repo: 'repository',
  repos: 'repositories',
  pr: 'pull request',
  prs: 'pull requests',
  mr: 'merge request',
  org: 'organization',
  orgs: 'organizations',
  config: 'configuration',
  configs: 'configurations',
  env: 'environment',
  envs: 'environments',
  info: 'information',
  msg: 'message',
  msgs: 'messages',
  img: 'image',
  imgs: 'images',
  pic: 'picture',
  pics: 'pictures',
  dir: 'directory',
  dirs: 'directories',
  db: 'database',
  dbs: 'databases',
  k8s: 'kubernetes',
  vm: 'virtual machine',
  vms: 'virtual machines',
  ns: 'namespace',
  svc: 'service',
  svcs: 'services',
  cert: 'certificate',
  certs: 'certificates',
  creds: 'credentials',
  pwd: 'password',
  acct: 'account',
  addr: 'address',
  qty: 'quantity',
  txn: 'transaction',
  txns: 'transactions',
  stats: 'statistics',
  dm: 'direct message',
  dms: 'direct messages',
  perms: 'permissions',
  desc: 'description',
  ssl: 'tls',
  webhook: 'web hook',
  webhooks: 'web hooks',
  rerun: 're run',
  username: 'user name',
};

/**
 * Verbs of requests, by the word APIs use (the head) and the words people use for it. A member searches
 * for its head; the head searches for its members at half weight (for an API that says "Add" where another
 * says "Create"). Members do not search for each other: "make" and "open" both mean create, but "open" is
 * also a state, and going through the head keeps one verb from dragging in another's senses.
 */
export const ACTION_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  get: ['show', 'see', 'view', 'display', 'read', 'fetch', 'retrieve', 'look', 'inspect', 'describe', 'detail', 'details'],
  list: ['show', 'enumerate', 'browse', 'overview'],
  search: ['find', 'lookup', 'locate', 'query', 'filter', 'grep', 'look'],
  count: ['total', 'tally'],
  check: ['verify', 'validate', 'confirm', 'test'],
  download: ['export', 'save', 'grab', 'fetch'],
  create: ['make', 'add', 'new', 'open', 'start', 'submit', 'raise', 'register', 'launch', 'provision', 'spin', 'generate', 'build', 'file', 'write', 'store', 'leave', 'put'],
  update: ['edit', 'change', 'modify', 'alter', 'rename', 'tweak', 'adjust', 'amend', 'patch', 'set', 'configure', 'mark', 'toggle', 'switch', 'fix', 'correct'],
  replace: ['overwrite', 'swap'],
  delete: ['remove', 'erase', 'drop', 'destroy', 'purge', 'wipe', 'discard', 'kill', 'nuke', 'clear', 'unset', 'trash', 'rid', 'uninstall', 'detach', 'unassign'],
  cancel: ['stop', 'halt', 'abort', 'kill', 'terminate', 'end', 'interrupt', 'quit', 'void'],
  restart: ['reboot', 'rerun', 'retry', 'redo', 'redeploy', 'rebuild', 'bounce', 'reset'],
  resume: ['unpause', 'continue', 'unsuspend', 'reactivate'],
  pause: ['suspend', 'freeze', 'hold'],
  enable: ['activate', 'allow', 'unblock'],
  disable: ['deactivate', 'block', 'forbid', 'prevent'],
  approve: ['accept', 'lgtm', 'allow'],
  reject: ['decline', 'deny', 'refuse', 'dismiss'],
  merge: ['combine', 'land'],
  fork: ['copy', 'clone'],
  copy: ['duplicate', 'clone'],
  transfer: ['move', 'relocate', 'migrate', 'reassign', 'hand'],
  upload: ['attach', 'put', 'send'],
  send: ['email', 'notify', 'deliver', 'dispatch', 'message', 'ping', 'remind', 'resend'],
  invite: ['onboard', 'ask'],
  ban: ['kick', 'block', 'expel'],
  follow: ['subscribe', 'watch', 'track'],
  unfollow: ['unsubscribe', 'unwatch', 'untrack'],
  star: ['favorite', 'favourite', 'bookmark', 'pin'],
  lock: ['freeze', 'protect', 'checkout'],
  unlock: ['unfreeze', 'unprotect'],
  assign: ['delegate', 'give', 'allocate'],
  comment: ['reply', 'respond', 'remark', 'note', 'feedback'],
  review: ['feedback', 'critique', 'approve'],
  scale: ['resize', 'grow', 'shrink', 'autoscale', 'replicas'],
  refund: ['reimburse', 'return'],
  revoke: ['invalidate', 'expire', 'withdraw'],
  rotate: ['regenerate', 'renew', 'refresh'],
  restore: ['recover', 'undelete', 'untrash', 'undo', 'back'],
  rollback: ['revert', 'undo'],
  connect: ['link', 'integrate', 'associate', 'attach'],
  disconnect: ['unlink', 'dissociate'],
  install: ['add', 'setup'],
  deploy: ['release', 'ship', 'publish', 'rollout'],
  run: ['trigger', 'dispatch', 'execute', 'fire', 'invoke', 'start', 'kickoff'],
  sync: ['synchronize', 'refresh', 'reload'],
  share: ['collaborate'],
  login: ['authenticate', 'authorize', 'signin'],
  schedule: ['cron', 'recurring', 'periodic', 'timer', 'nightly', 'daily', 'weekly', 'hourly'],
  close: ['resolve', 'finish', 'complete', 'shut'],
  reopen: ['unresolve', 'reactivate'],
  archive: ['retire', 'shelve', 'mothball'],
  compare: ['diff', 'contrast'],
  capture: ['collect', 'settle'],
  void: ['annul', 'nullify', 'write'],
  label: ['tag', 'categorize', 'classify'],
  tag: ['label', 'categorize'],
  mark: ['flag', 'classify'],
  test: ['try', 'ping', 'dry'],
  verify: ['confirm', 'validate', 'prove'],
  resend: ['remind', 'retry'],
  expose: ['publish', 'open'],
  estimate: ['preview', 'forecast', 'predict'],
  grant: ['give', 'allow', 'permit'],
};

/**
 * Heads of ACTION_SYNONYMS that change the state of something that exists. Many APIs have no operation named
 * for them and do them as an update: closing an issue is `PATCH` with `state: closed`, pausing a cron job sets
 * `suspend`. Such a verb (and its members) also searches for `update`, at a low weight: the update of the
 * thing asked about is the fallback when no operation is named for the verb, and an operation that is
 * named for it still ranks first.
 */
export const STATE_CHANGES: readonly string[] = ['close', 'reopen', 'archive', 'pause', 'resume', 'enable', 'disable', 'lock', 'unlock', 'mark', 'assign', 'scale', 'restart', 'cancel'];

/**
 * Phrasal verbs, read as the one word they mean before anything else happens to a request ("call off" is
 * cancel, not "call" and "off", which are both stop words).
 */
export const PHRASES: Readonly<Record<string, string>> = {
  'call off': 'cancel',
  'turn on': 'enable',
  'switch on': 'enable',
  'turn off': 'disable',
  'switch off': 'disable',
  'shut down': 'stop',
  'power off': 'stop',
  'power on': 'start',
  'boot up': 'start',
  'kick off': 'run',
  'roll back': 'rollback',
  'log in': 'login',
  'sign in': 'login',
  'log out': 'logout',
  'sign out': 'logout',
  'sign up': 'register',
  'set up': 'create',
  'spin up': 'create',
  'get rid of': 'delete',
  'clean up': 'delete',
  'tear down': 'delete',
  'take down': 'delete',
  'bring back': 'restore',
  'hand over': 'transfer',
  'look up': 'find',
  'find out': 'get',
  'money back': 'refund',
  'give back': 'refund',
  'pay out': 'payout',
  'sign off': 'approve',
  'hook up': 'connect',
  'go live': 'deploy',
  'how many': 'count',
  'power cycle': 'restart',
  'merge request': 'pull request',
  'check out': 'lock',
};

/**
 * Things in requests: words that name the same kind of object in different APIs. Every word of a set
 * searches for the others the API uses (machine, server, node, droplet and instance are one thing to
 * someone asking).
 */
export const THING_SYNONYMS: readonly (readonly string[])[] = [
  ['issue', 'ticket', 'bug', 'task', 'defect', 'problem', 'todo', 'incident'],
  ['pull request', 'change request'],
  ['repository', 'project', 'codebase', 'repo'],
  ['commit', 'changeset', 'revision'],
  ['workflow', 'pipeline', 'build', 'job', 'action', 'ci', 'check'],
  ['node', 'machine', 'server', 'host', 'computer', 'droplet', 'instance', 'virtual machine', 'box'],
  ['container', 'pod', 'docker'],
  ['image', 'snapshot', 'picture', 'photo', 'screenshot'],
  ['application', 'app', 'program', 'service'],
  ['user', 'person', 'people', 'member', 'account', 'profile', 'teammate', 'colleague', 'employee', 'staff', 'contributor'],
  ['team', 'group', 'squad', 'department'],
  ['organization', 'company', 'business', 'workspace', 'enterprise', 'tenant', 'account'],
  ['customer', 'client', 'buyer', 'shopper', 'payer', 'purchaser'],
  ['card', 'credit card', 'debit card', 'payment method', 'source'],
  ['bank account', 'iban', 'external account', 'payment method'],
  ['payment', 'transaction', 'purchase', 'charge', 'sale', 'payment intent'],
  ['charge', 'bill', 'pay', 'invoice'],
  ['invoice', 'bill', 'receipt', 'statement'],
  ['subscription', 'membership', 'recurring', 'plan'],
  ['price', 'cost', 'pricing', 'fee', 'rate', 'amount'],
  ['product', 'item', 'sku', 'goods', 'offering', 'merchandise'],
  ['dispute', 'chargeback'],
  ['coupon', 'discount', 'promo', 'promotion', 'voucher', 'promotion code'],
  ['payout', 'withdrawal', 'transfer', 'cash out'],
  ['balance', 'funds', 'money', 'owe', 'owed', 'due', 'outstanding'],
  ['file', 'document', 'attachment', 'upload', 'blob', 'asset', 'content', 'pdf', 'spreadsheet', 'screenshot', 'contract', 'report', 'presentation'],
  ['folder', 'directory'],
  ['link', 'url', 'address'],
  ['message', 'chat', 'conversation', 'post', 'text', 'direct message'],
  ['channel', 'room', 'chatroom', 'conversation'],
  ['notification', 'alert', 'alarm', 'notice'],
  ['event', 'activity', 'happening', 'occurrence', 'audit', 'history', 'timeline'],
  ['rate limit', 'quota', 'limit', 'throttle'],
  ['latest', 'newest', 'recent', 'last', 'current'],
  ['account', 'seller', 'merchant', 'vendor', 'connected account'],
  ['access', 'collaborator', 'collaboration', 'permission', 'membership'],
  ['web hook', 'hook', 'callback', 'event subscription'],
  ['key', 'secret', 'password', 'credential', 'token', 'api key'],
  ['permission', 'access', 'role', 'privilege', 'grant'],
  ['policy', 'rule', 'permission'],
  ['setting', 'preference', 'option', 'configuration'],
  ['label', 'tag', 'category', 'topic'],
  ['release', 'version', 'tag'],
  ['version', 'revision', 'history'],
  ['package', 'library', 'module', 'artifact'],
  ['environment', 'stage', 'production', 'prod', 'staging'],
  ['log', 'output', 'console', 'trace'],
  ['metric', 'statistic', 'usage', 'analytic', 'analytics', 'traffic', 'insight', 'monitoring', 'measurement'],
  ['backup', 'snapshot'],
  ['volume', 'disk', 'storage', 'drive', 'block storage', 'persistent volume', 'volume claim'],
  ['database', 'sql', 'postgres', 'mysql', 'redis', 'cluster'],
  ['domain', 'dns', 'zone', 'hostname'],
  ['record', 'entry', 'row'],
  ['firewall', 'security group', 'network policy', 'allowlist', 'whitelist', 'acl'],
  ['load balancer', 'balancer', 'proxy', 'ingress'],
  ['ingress', 'route', 'routing', 'expose'],
  ['autoscaler', 'autoscale', 'autoscaling', 'horizontal pod autoscaler'],
  ['daemon', 'daemon set', 'every node'],
  ['network', 'vpc', 'subnet', 'lan'],
  ['ip', 'ip address', 'floating ip', 'reserved ip'],
  ['region', 'location', 'datacenter', 'data center'],
  ['size', 'tier', 'flavor', 'plan'],
  ['replica', 'replica set', 'copies'],
  ['namespace', 'project', 'space'],
  ['service account', 'bot', 'robot', 'machine user'],
  ['quota', 'limit', 'cap'],
  ['gist', 'snippet', 'paste'],
  ['discussion', 'forum', 'thread'],
  ['reaction', 'emoji', 'thumbs up', 'upvote'],
  ['runner', 'agent', 'worker'],
  ['vulnerability', 'cve', 'advisory', 'security alert', 'exploit'],
  ['dependency', 'dependencies', 'library'],
  ['owner', 'admin', 'administrator', 'maintainer', 'manager'],
  ['email', 'mail', 'e mail', 'inbox'],
  ['avatar', 'profile picture', 'photo'],
  ['trash', 'bin', 'recycle bin', 'deleted'],
  ['metadata', 'property', 'attribute', 'field'],
  ['signature', 'sign', 'e sign', 'sign request'],
  ['thumbnail', 'preview'],
  ['certificate', 'tls', 'https'],
  ['redirect', 'forward', 'forwarding'],
  ['secret', 'credential', 'password', 'sensitive'],
  ['follower', 'fan', 'audience'],
  ['contributor', 'author', 'committer', 'collaborator'],
  ['collaborator', 'member', 'teammate', 'contributor'],
  ['star', 'stargazer'],
];

/**
 * Words that hint at what kind of operation is meant without naming it: "my repositories" are the
 * authenticated user's, "which nodes" asks for a list. Searched at a low weight, only to break ties; an
 * operation is not worse for lacking them.
 */
export const HINT_WORDS: Readonly<Record<string, readonly string[]>> = {
  i: ['authenticated', 'current', 'own', 'self'],
  me: ['authenticated', 'current', 'own', 'self'],
  my: ['authenticated', 'current', 'own', 'self'],
  mine: ['authenticated', 'current', 'own', 'self'],
  myself: ['authenticated', 'current', 'own', 'self'],
  which: ['list', 'get'],
  what: ['list', 'get'],
  who: ['list', 'user', 'member'],
};

/**
 * A table's entry for a word, own entries only: words come from specs and requests, and `constructor` or
 * `toString` must not find Object.prototype's functions.
 */
export function entryOf<T>(table: Readonly<Record<string, T>>, word: string): T | undefined {
  return Object.hasOwn(table, word) ? table[word] : undefined;
}
