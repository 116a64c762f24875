/**
 * One fake value per scanner rule (src/core/secret-rules.ts), built at run time in each
 * provider's documented format so that the repository holds no token-shaped literal:
 * prefixes are joined from parts, bodies come from a seeded generator. Named rows (a value
 * that counts only under a provider's field name) carry the field name to use.
 */
import { FakeSecrets } from './fake-secrets.js';

export const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const LOWER = 'abcdefghijklmnopqrstuvwxyz';
export const DIGITS = '0123456789';
export const ALNUM = UPPER + LOWER + DIGITS;
export const LOWALNUM = LOWER + DIGITS;
export const HEX = '0123456789abcdef';
export const B64 = `${ALNUM}+/`;
export const B64URL = `${ALNUM}-_`;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const BECH32 = 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L';
const UA = UPPER + DIGITS;

/** Joins parts, so that no prefix appears whole in this file. */
const j = (...parts: string[]) => parts.join('');

export interface Sample {
  /** the field name for a named row */
  name?: string;
  make: (f: FakeSecrets, pick: <T>(xs: T[]) => T) => string;
}

const c = (f: FakeSecrets, a: string, n: number) => f.chars(a, n);
const hex = (f: FakeSecrets, n: number) => f.chars(HEX, n);
const uuid = (f: FakeSecrets) => [8, 4, 4, 4, 12].map((n) => hex(f, n)).join('-');

export const SAMPLES: Record<string, Sample> = {
  'private-key': { make: (f, p) => f.privateKeyBlock(p(['RSA ', 'OPENSSH ', 'EC ', '', 'DSA ', 'ENCRYPTED '])) },
  'putty-private-key': {
    make: (f) =>
      `${j('PuTTY-User', '-Key-File-3')}: ssh-ed25519\nEncryption: none\nComment: dev\nPublic-Lines: 2\n${c(f, B64, 64)}\n${c(f, B64, 20)}\n${j('Private', '-Lines')}: 1\n${c(f, B64, 44)}`,
  },
  'age-secret-key': { make: (f) => j('AGE-SEC', 'RET-KEY-1') + c(f, BECH32, 58) },
  'ssh-public-key': { make: (f, p) => (p([0, 1]) ? f.sshEd25519() : f.sshRsa()) },
  jwt: { make: (f) => f.jwt() },
  'jwt-base64': { make: (f) => Buffer.from(f.jwt()).toString('base64') },
  'aws-access-key-id': { make: (f, p) => p([j('AK', 'IA'), j('AS', 'IA'), j('A3', 'TX'), j('AB', 'IA')]) + c(f, UA, 16) },
  'aws-secret-access-key': { name: 'AWS_SECRET_ACCESS_KEY', make: (f) => c(f, B64, 40) },
  'aws-bedrock-key': { make: (f) => j('AB', 'SK') + c(f, B64, 140) },
  'aws-bedrock-short-key': { make: (f) => j('bedrock-api', '-key-', 'YmVkcm9jay5hbWF6b25hd3MuY29t') + c(f, B64URL, 80) },
  'azure-ad-client-secret': { make: (f) => `${c(f, ALNUM, 3)}${c(f, DIGITS, 1)}${j('Q', '~')}${c(f, `${ALNUM}_~.-`, 34)}` },
  'azure-storage-key': {
    make: (f) => `DefaultEndpointsProtocol=https;AccountName=acme;${j('Account', 'Key=')}${c(f, B64, 86)}==;EndpointSuffix=core.windows.net`,
  },
  'azure-sas-signature': { make: (f) => `https://acme.blob.core.windows.net/c/x.zip?sv=2022-11-02&sp=r&se=2026-12-01&${j('si', 'g=')}${c(f, ALNUM, 43)}%3D` },
  'azure-devops-pat': { name: 'AZURE_DEVOPS_PAT', make: (f) => c(f, BASE32, 52) },
  'gcp-api-key': { make: (f) => f.googleApiKey() },
  'gcp-oauth-secret': { make: (f) => f.googleOauthSecret() },
  'gcp-oauth-access-token': { make: (f) => j('ya', '29.') + c(f, B64URL, 120) },
  'gcp-oauth-refresh-token': { make: (f) => j('1/', '/0') + c(f, B64URL, 64) },
  'alibaba-access-key-id': { make: (f) => j('LT', 'AI') + c(f, ALNUM, 20) },
  'alibaba-secret-key': { name: 'ALIBABA_CLOUD_ACCESS_KEY_SECRET', make: (f) => c(f, LOWALNUM, 30) },
  'digitalocean-token': { make: (f, p) => j('do', p(['p', 'o', 'r']), '_v1_') + hex(f, 64) },
  'flyio-token': { make: (f, p) => (p([0, 1]) ? j('fo', '1_') + c(f, B64URL, 43) : j('fm', '2_') + c(f, B64, 160)) },
  'heroku-api-key-v2': { make: (f) => j('HR', 'KU-AA') + c(f, B64URL, 58) },
  'heroku-api-key': { name: 'HEROKU_API_KEY', make: uuid },
  'cloudflare-origin-ca-key': { make: (f) => `${j('v1', '.0-')}${hex(f, 24)}-${hex(f, 146)}` },
  'cloudflare-api-key': { name: 'CLOUDFLARE_API_TOKEN', make: (f) => c(f, `${ALNUM}_-`, 40) },
  'ibm-cloud-api-key': { name: 'IBM_CLOUD_API_KEY', make: (f) => c(f, B64URL, 44) },
  'scalingo-token': { make: (f) => j('tk-', 'us-') + c(f, B64URL, 48) },
  'yandex-api-key': { make: (f) => j('AQ', 'VN') + c(f, B64URL, 36) },
  'yandex-oauth-token': { make: (f) => j('y0', '_') + c(f, B64URL, 55) },
  'yandex-iam-token': { name: 'YANDEX_IAM_TOKEN', make: (f) => `${j('t', '1.')}${c(f, B64URL, 20)}.${c(f, B64URL, 86)}` },
  'anthropic-api-key': { make: (f) => f.anthropicKey() },
  'openai-api-key': { make: (f) => j('sk-', 'proj-') + c(f, B64URL, 74) + j('T3Blbk', 'FJ') + c(f, B64URL, 74) },
  'sk-api-key': { make: (f) => f.openAiLegacyKey() },
  'perplexity-api-key': { make: (f) => j('pp', 'lx-') + c(f, ALNUM, 48) },
  'huggingface-token': { make: (f) => f.huggingFace() },
  'huggingface-org-token': { make: (f) => j('api_', 'org_') + c(f, ALNUM, 34) },
  'groq-api-key': { make: (f) => j('gs', 'k_') + c(f, ALNUM, 52) },
  'xai-api-key': { make: (f) => j('xa', 'i-') + c(f, ALNUM, 80) },
  'replicate-token': { make: (f) => j('r8', '_') + c(f, ALNUM, 37) },
  'cohere-api-key': { name: 'COHERE_API_KEY', make: (f) => c(f, ALNUM, 40) },
  'privateai-api-key': { name: 'PRIVATE_AI_API_KEY', make: (f) => c(f, LOWALNUM, 32) },
  'github-token': { make: (f, p) => f.githubClassic(p(['ghp', 'gho', 'ghu', 'ghs', 'ghr'] as const)) },
  'github-fine-grained-pat': { make: (f) => f.githubFineGrained() },
  'gitlab-token': {
    make: (f, p) => {
      const [pre, n] = p([
        ['pat', 20],
        ['dt', 20],
        ['ffct', 20],
        ['ft', 20],
        ['imt', 25],
        ['agent', 50],
        ['oas', 64],
        ['soat', 20],
        ['rt', 20],
      ] as [string, number][]);
      return j('gl', pre, '-') + c(f, B64URL, n);
    },
  },
  'gitlab-pipeline-trigger': { make: (f) => j('gl', 'ptt-') + hex(f, 40) },
  'gitlab-runner-registration': { make: (f) => j('GR13', '48941') + c(f, B64URL, 20) },
  'gitlab-session-cookie': { make: (f) => `${j('_gitlab', '_session=')}${c(f, LOWALNUM, 32)}` },
  'bitbucket-app-password': { make: (f) => j('AT', 'BB') + c(f, ALNUM, 32) },
  'bitbucket-client': { name: 'BITBUCKET_CLIENT_SECRET', make: (f) => c(f, ALNUM, 64) },
  'atlassian-api-token': { make: (f) => j('ATA', 'TT3') + c(f, B64URL, 186) },
  'atlassian-named-token': { name: 'JIRA_API_TOKEN', make: (f) => c(f, LOWALNUM, 20) + hex(f, 4) },
  'npm-token': { make: (f) => f.npm() },
  'pypi-token': { make: (f) => f.pypi() },
  'rubygems-token': { make: (f) => j('ruby', 'gems_') + hex(f, 48) },
  'clojars-token': { make: (f) => j('CLO', 'JARS_') + c(f, LOWALNUM, 60) },
  'nuget-api-key': { make: (f) => j('oy', '2') + c(f, LOWALNUM, 43) },
  'nuget-config-password': { make: (f) => `<add key="ClearText${j('Pass', 'word')}" value="${f.password()}" />` },
  'docker-hub-pat': { make: (f) => j('dckr', '_pat_') + c(f, B64URL, 27) },
  'artifactory-api-key': { make: (f) => j('AK', 'Cp') + c(f, ALNUM, 69) },
  'artifactory-reference-token': { make: (f) => j('cmV', 'md') + c(f, ALNUM, 59) },
  'jfrog-token': { name: 'JFROG_ACCESS_TOKEN', make: (f) => c(f, LOWALNUM, 64) },
  'codecov-token': { name: 'CODECOV_TOKEN', make: uuid },
  'droneci-token': { name: 'DRONE_TOKEN', make: (f) => c(f, LOWALNUM, 32) },
  'travisci-token': { name: 'TRAVIS_API_TOKEN', make: (f) => c(f, LOWALNUM, 22) },
  'harness-token': { make: (f) => `${j('pa', 't.')}${c(f, B64URL, 22)}.${c(f, ALNUM, 24)}.${c(f, ALNUM, 20)}` },
  'octopus-deploy-key': { make: (f) => j('AP', 'I-') + c(f, UA, 26) },
  'pulumi-token': { make: (f) => j('pu', 'l-') + hex(f, 40) },
  'prefect-token': { make: (f) => j('pn', 'u_') + c(f, ALNUM, 36) },
  'sonar-token': { make: (f, p) => j('sq', p(['p', 'u', 'a']), '_') + hex(f, 40) },
  'sonar-named-token': { name: 'SONAR_TOKEN', make: (f) => c(f, LOWALNUM, 40) },
  'snyk-token': { name: 'SNYK_TOKEN', make: uuid },
  'sourcegraph-token': { make: (f) => `${j('sg', 'p_')}${hex(f, 16)}_${hex(f, 40)}` },
  'sourcegraph-named-token': { name: 'SOURCEGRAPH_ACCESS_TOKEN', make: (f) => hex(f, 40) },
  'hashicorp-tf-token': { make: (f) => `${c(f, ALNUM, 14)}${j('.atlas', 'v1.')}${c(f, `${ALNUM}_-`, 67)}` },
  'hashicorp-tf-password': { name: 'administrator_login_password', make: (f) => c(f, ALNUM, 16) },
  'vault-token': { make: (f) => j('hv', 's.') + c(f, B64URL, 95) },
  'vault-legacy-token': { make: (f) => j('s', '.') + c(f, ALNUM, 24) },
  'infracost-token': { make: (f) => j('ic', 'o-') + c(f, ALNUM, 32) },
  'doppler-token': { make: (f) => j('dp', '.pt.') + c(f, ALNUM, 43) },
  'databricks-token': { make: (f) => j('da', 'pi') + hex(f, 32) },
  'clickhouse-key': { make: (f) => j('4b', '1d') + c(f, ALNUM, 38) },
  'planetscale-token': { make: (f, p) => j('pscale_', p(['tkn', 'pw', 'oauth']), '_') + c(f, `${ALNUM}_`, 43) },
  'supabase-token': { make: (f) => j('sb', 'p_') + hex(f, 40) },
  'netlify-token': { make: (f) => j('nf', 'p_') + c(f, ALNUM, 36) },
  'netlify-named-token': { name: 'NETLIFY_AUTH_TOKEN', make: (f) => c(f, B64URL, 43) },
  'defined-networking-token': { make: (f) => `${j('dn', 'key-')}${c(f, LOWALNUM, 26)}-${c(f, LOWALNUM, 52)}` },
  'readme-token': { make: (f) => j('rd', 'me_') + c(f, LOWALNUM, 70) },
  'openshift-token': { make: (f) => j('sha', '256~') + c(f, B64URL, 43) },
  'kubernetes-secret': {
    make: (f) => `apiVersion: v1\n${j('kind: Sec', 'ret')}\nmetadata:\n  name: db\ndata:\n  password: ${Buffer.from(c(f, ALNUM, 24)).toString('base64')}`,
  },
  'slack-token': {
    make: (f, p) =>
      p([
        () => f.slackBot(),
        () => `${j('xo', 'xp-')}${c(f, DIGITS, 12)}-${c(f, DIGITS, 12)}-${c(f, DIGITS, 13)}-${hex(f, 32)}`,
        () => `${j('xoxe', '.xoxp-1-')}${c(f, UA, 164)}`,
        () => `${j('xo', 'xe-1-')}${c(f, UA, 146)}`,
      ])(),
  },
  'slack-app-token': { make: (f) => `${j('xa', 'pp-1-A')}${c(f, UA, 10)}-${c(f, DIGITS, 13)}-${hex(f, 64)}` },
  'slack-webhook': { make: (f) => f.slackWebhook() },
  'teams-webhook': {
    make: (f, p) =>
      `https://${p([`acme.${j('webhook', '.office')}.com/webhookb2`, `${j('outlook', '.office')}.com/webhook`, `${j('outlook', '.office365')}.com/webhook`])}/${uuid(f)}@${uuid(f)}/IncomingWebhook/${hex(f, 32)}/${uuid(f)}`,
  },
  'tailscale-key': { make: (f, p) => `${j('tsk', 'ey-')}${p(['auth', 'api', 'client'])}-k${c(f, ALNUM, 16)}-${c(f, ALNUM, 33)}` },
  'discord-webhook': { make: (f) => `https://${j('discord', '.com/api/webhooks/')}${c(f, DIGITS, 18)}/${c(f, B64URL, 68)}` },
  'discord-token': { name: 'DISCORD_BOT_TOKEN', make: (f) => `M${c(f, ALNUM, 24)}.${c(f, B64URL, 6)}.${c(f, B64URL, 30)}` },
  'telegram-bot-token': { make: (f) => `${c(f, DIGITS, 10)}${j(':A', 'A')}${c(f, B64URL, 33)}` },
  'telegram-named-token': { name: 'TELEGRAM_BOT_TOKEN', make: (f) => `${c(f, DIGITS, 9)}:Ab${c(f, B64URL, 33)}` },
  'mattermost-token': { name: 'MATTERMOST_TOKEN', make: (f) => c(f, LOWALNUM, 26) },
  'gitter-token': { name: 'GITTER_TOKEN', make: (f) => c(f, `${LOWALNUM}_-`, 40) },
  'messagebird-token': { name: 'MESSAGEBIRD_API_KEY', make: (f) => c(f, LOWALNUM, 25) },
  'sendbird-token': { name: 'SENDBIRD_API_TOKEN', make: (f) => hex(f, 40) },
  'sendgrid-key': { make: (f) => f.sendgrid() },
  'sendinblue-key': { make: (f) => `${j('xkey', 'sib-')}${hex(f, 64)}-${c(f, ALNUM, 16)}` },
  'mailchimp-key': { make: (f) => `${hex(f, 32)}${j('-u', 's')}${1 + Math.floor(Number(c(f, DIGITS, 1)) * 2)}` },
  'mailgun-key': { make: (f) => j('ke', 'y-') + hex(f, 32) },
  'mailgun-signing-key': {
    name: 'MAILGUN_SIGNING_KEY',
    make: (f) => `${c(f, 'abcdefgh0123456789', 32)}-${c(f, 'abcdefgh0123456789', 8)}-${c(f, 'abcdefgh0123456789', 8)}`,
  },
  'twilio-api-key': { make: (f) => f.twilio() },
  'twilio-auth-token': { name: 'TWILIO_AUTH_TOKEN', make: (f) => hex(f, 32) },
  'intercom-token': { name: 'INTERCOM_ACCESS_TOKEN', make: (f) => c(f, ALNUM, 60) },
  'zendesk-token': { name: 'ZENDESK_API_TOKEN', make: (f) => c(f, ALNUM, 40) },
  'notion-token': { make: (f) => j('nt', 'n_') + c(f, DIGITS, 11) + c(f, ALNUM, 35) },
  'linear-api-key': { make: (f) => j('lin', '_api_') + c(f, ALNUM, 40) },
  'linear-client-secret': { name: 'LINEAR_CLIENT_SECRET', make: (f) => hex(f, 32) },
  'asana-token': { name: 'ASANA_PAT', make: (f) => `2/${c(f, DIGITS, 16)}/${c(f, DIGITS, 16)}:${hex(f, 32)}` },
  'typeform-token': { make: (f) => j('tf', 'p_') + c(f, `${ALNUM}_-`, 59) },
  'postman-token': { make: (f) => `${j('PM', 'AK-')}${hex(f, 24)}-${hex(f, 34)}` },
  'figma-token': { make: (f) => j('fig', 'd_') + c(f, B64URL, 40) },
  'airtable-pat': { make: (f) => `${j('pa', 't')}${c(f, ALNUM, 14)}.${hex(f, 64)}` },
  'airtable-api-key': { name: 'AIRTABLE_API_KEY', make: (f) => j('ke', 'y') + c(f, ALNUM, 14) },
  'frameio-token': { make: (f) => j('fio', '-u-') + c(f, B64URL, 64) },
  'dropbox-short-token': { make: (f) => j('sl', '.') + c(f, B64URL, 138) },
  'dropbox-token': { name: 'DROPBOX_ACCESS_TOKEN', make: (f) => `${c(f, LOWALNUM, 11)}AAAAAAAAAA${c(f, B64URL, 43)}` },
  'contentful-pat': { make: (f) => j('CF', 'PAT-') + c(f, B64URL, 43) },
  'contentful-delivery-token': { name: 'CONTENTFUL_DELIVERY_TOKEN', make: (f) => c(f, B64URL, 43) },
  'squarespace-token': { name: 'SQUARESPACE_API_KEY', make: uuid },
  'hubspot-token': { make: (f, p) => `${j('pat', '-', p(['na1', 'eu1']), '-')}${uuid(f)}` },
  'hubspot-api-key': { name: 'HUBSPOT_API_KEY', make: (f) => uuid(f).toUpperCase() },
  'launchdarkly-key': { name: 'LAUNCHDARKLY_SDK_KEY', make: (f) => `sdk-${uuid(f)}` },
  'freshbooks-token': { name: 'FRESHBOOKS_TOKEN', make: (f) => c(f, LOWALNUM, 64) },
  'linkedin-secret': { name: 'LINKEDIN_CLIENT_SECRET', make: (f) => c(f, LOWALNUM, 16) },
  'looker-secret': { name: 'LOOKER_CLIENT_SECRET', make: (f) => c(f, LOWALNUM, 24) },
  'nytimes-token': { name: 'NYTIMES_API_KEY', make: (f) => c(f, ALNUM, 32) },
  'rapidapi-key': { name: 'RAPIDAPI_KEY', make: (f) => c(f, ALNUM, 50) },
  'adafruit-key': { make: (f) => j('ai', 'o_') + c(f, ALNUM, 28) },
  'adafruit-named-key': { name: 'ADAFRUIT_IO_KEY', make: (f) => c(f, `${LOWALNUM}_-`, 32) },
  'algolia-key': { name: 'ALGOLIA_API_KEY', make: (f) => hex(f, 32) },
  'beamer-token': { name: 'BEAMER_API_KEY', make: (f) => j('b', '_') + c(f, `${ALNUM}_-`, 44) },
  'etsy-token': { name: 'ETSY_API_KEY', make: (f) => c(f, LOWALNUM, 24) },
  'flickr-token': { name: 'FLICKR_API_KEY', make: (f) => hex(f, 32) },
  'twitch-token': { name: 'TWITCH_CLIENT_SECRET', make: (f) => c(f, LOWALNUM, 30) },
  'twitter-bearer': { make: (f) => 'A'.repeat(22) + c(f, `${ALNUM}%`, 90) },
  'twitter-token': { name: 'TWITTER_ACCESS_TOKEN', make: (f) => `${c(f, DIGITS, 19)}-${c(f, ALNUM, 40)}` },
  'facebook-app-token': { make: (f) => `${c(f, DIGITS, 15)}|${c(f, B64URL.replace('-', ''), 27)}` },
  'facebook-page-token': { make: (f) => j('EA', 'AC') + c(f, ALNUM, 150) },
  'facebook-token': { name: 'FACEBOOK_APP_SECRET', make: (f) => hex(f, 32) },
  'okta-token': { name: 'OKTA_API_TOKEN', make: (f) => `00${c(f, B64URL, 40)}` },
  'authress-key': { make: (f) => `${j('sc', '_')}${c(f, LOWALNUM, 10)}.${c(f, LOWALNUM, 5)}.${j('ac', 'c_')}${c(f, LOWALNUM, 16)}.${c(f, B64, 60)}` },
  'onepassword-secret-key': { make: (f) => `${j('A', '3-')}${c(f, UA, 6)}-${c(f, UA, 11)}-${c(f, UA, 5)}-${c(f, UA, 5)}-${c(f, UA, 5)}` },
  'onepassword-service-token': { make: (f) => j('op', 's_eyJ') + c(f, B64, 300) },
  'dynatrace-token': { make: (f) => `${j('dt0', 'c01.')}${c(f, UA, 24)}.${c(f, UA, 64)}` },
  'grafana-token': { make: (f, p) => (p([0, 1]) ? `${j('gl', 'sa_')}${c(f, ALNUM, 32)}_${hex(f, 8)}` : j('gl', 'c_') + c(f, B64, 80)) },
  'new-relic-key': { make: (f) => j('NR', 'AK-') + c(f, UA, 27) },
  'new-relic-named': { name: 'NEW_RELIC_API_KEY', make: (f) => c(f, LOWALNUM, 64) },
  'datadog-key': { name: 'DATADOG_API_KEY', make: (f) => hex(f, 32) },
  'sentry-token': { make: (f) => j('sntr', 'yu_') + hex(f, 64) },
  'sentry-named-token': { name: 'SENTRY_AUTH_TOKEN', make: (f) => hex(f, 64) },
  'sumologic-key': { name: 'SUMO_ACCESS_ID', make: (f) => j('s', 'u') + c(f, ALNUM, 12) },
  'fastly-token': { name: 'FASTLY_API_TOKEN', make: (f) => c(f, B64URL, 32) },
  'meraki-key': { name: 'MERAKI_API_KEY', make: (f) => hex(f, 40) },
  'confluent-key': { name: 'CONFLUENT_API_SECRET', make: (f) => c(f, ALNUM, 64) },
  'settlemint-token': { make: (f, p) => j('sm_', p(['p', 'a', 's']), 'at_') + c(f, ALNUM, 16) },
  'intra42-secret': { make: (f) => j('s-s4', 't2ud-') + hex(f, 64) },
  'maxmind-key': { make: (f) => `${c(f, ALNUM, 6)}_${c(f, ALNUM, 29)}${j('_mm', 'k')}` },
  'sidekiq-secret': {
    make: (f, p) =>
      p([0, 1])
        ? `${j('BUNDLE_ENTERPRISE', '__CONTRIBSYS__COM')}=${hex(f, 8)}:${hex(f, 8)}`
        : `https://${hex(f, 8)}:${hex(f, 8)}@${j('gems.contrib', 'sys.com')}/`,
  },
  'stripe-key': { make: (f, p) => p([() => f.stripe(), () => j('r', 'k_test_') + c(f, ALNUM, 24), () => j('wh', 'sec_') + c(f, ALNUM, 32)])() },
  'square-token': { make: (f, p) => (p([0, 1]) ? j('sq0', 'atp-') + c(f, B64URL, 22) : j('sq0', 'csp-') + c(f, B64URL, 43)) },
  'shopify-token': { make: (f) => f.shopify() },
  'shippo-token': { make: (f) => j('ship', 'po_live_') + hex(f, 40) },
  'duffel-token': { make: (f) => j('duf', 'fel_test_') + c(f, B64URL, 43) },
  'easypost-token': { make: (f) => j('EZ', 'AK') + c(f, ALNUM, 54) },
  'flutterwave-key': { make: (f) => `${j('FLW', 'SECK_TEST-')}${c(f, 'abcdefgh0123456789', 32)}-X` },
  'plaid-token': { make: (f) => `${j('access-', 'sandbox-')}${uuid(f)}` },
  'plaid-secret': { name: 'PLAID_SECRET', make: (f) => c(f, LOWALNUM, 30) },
  'gocardless-token': { name: 'GOCARDLESS_ACCESS_TOKEN', make: (f) => j('li', 've_') + c(f, B64URL, 40) },
  'lob-key': { name: 'LOB_API_KEY', make: (f) => j('li', 've_') + hex(f, 35) },
  'coinbase-token': { name: 'COINBASE_API_SECRET', make: (f) => c(f, B64URL, 64) },
  'kraken-token': { name: 'KRAKEN_PRIVATE_KEY', make: (f) => c(f, B64, 88) },
  'kucoin-key': { name: 'KUCOIN_API_SECRET', make: uuid },
  'bittrex-key': { name: 'BITTREX_API_SECRET', make: (f) => c(f, LOWALNUM, 32) },
  'finicity-key': { name: 'FINICITY_APP_KEY', make: (f) => hex(f, 32) },
  'finnhub-token': { name: 'FINNHUB_API_KEY', make: (f) => c(f, LOWALNUM, 20) },
  'freemius-key': { name: 'secret_key', make: (f) => j('s', 'k_') + c(f, ALNUM, 29) },
  'mapbox-token': { make: (f) => `${j('sk', '.eyJ')}${c(f, B64URL, 60)}.${c(f, B64URL, 22)}` },
  'mapbox-named-token': { name: 'MAPBOX_TOKEN', make: (f) => `${j('p', 'k.')}${c(f, ALNUM, 60)}.${c(f, ALNUM, 22)}` },
  'adobe-client-secret': { make: (f) => j('p8', 'e-') + c(f, ALNUM, 32) },
  'adobe-client-id': { name: 'ADOBE_CLIENT_ID', make: (f) => hex(f, 32) },
};

/** A generator of samples: `sample(id)` builds a fresh fake value for rule `id`. */
export function sampler(seed: number): (id: string) => string {
  const f = new FakeSecrets(seed);
  let n = seed;
  const pick = <T>(xs: T[]): T => xs[(n = (Math.imul(n, 1103515245) + 12345) >>> 0) % xs.length];
  return (id) => SAMPLES[id].make(f, pick);
}
