/**
 * The provider rule table of the secret scanner, as data. One row per token
 * format, written from each provider's documented format and covering every family of
 * gitleaks' default rule list (config/gitleaks.toml), plus a few newer formats.
 *
 * Two shapes of row:
 * - a token row (no `name`): `pattern` is the whole token and identifies itself (a prefix,
 *   a fixed alphabet and length). It runs only on lines holding one of its `keywords`.
 * - a named row (`name` set): the value alone says little (32 hex digits), so it counts only
 *   as the value of a field whose name contains one of `keywords` (`ADAFRUIT_KEY=...`,
 *   `"heroku_api_key": "..."`). `pattern` is then the value, matched whole.
 * `entropy` is the minimum Shannon entropy (bits per character) where the format alone is
 * not enough; `keep` is how many leading characters are a public prefix the refusal may
 * show (default: the pattern's literal head).
 */
export interface SecretRule {
  id: string;
  family: string;
  /** what a refusal calls it */
  kind: string;
  /** lower-case fragments; the rule is tried only on a line that holds one */
  keywords: string[];
  /** JavaScript regex source: the token (token rows) or the value (named rows) */
  pattern: string;
  /** named rows: the field name must contain one of `keywords` */
  name?: true;
  entropy?: number;
  /** case-insensitive pattern */
  i?: true;
  /** capture group that holds the secret (token rows; default the whole match) */
  group?: number;
  /** the pattern spans lines: run it on the whole text */
  multiline?: true;
  keep?: number;
}

const HEX = '[0-9a-f]';
const UUID = `${HEX}{8}-${HEX}{4}-${HEX}{4}-${HEX}{4}-${HEX}{12}`;
const UUID_UPPER = '[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}';

export const SECRET_RULES: SecretRule[] = [
  // Keys and key blocks
  { id: 'private-key', family: 'private key', kind: 'private key', keywords: ['-----begin'], pattern: '-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\\s\\S]{0,200}?[A-Za-z0-9+/]{40}', multiline: true, keep: 0 },
  { id: 'putty-private-key', family: 'private key', kind: 'PuTTY private key', keywords: ['putty-user-key-file'], pattern: 'PuTTY-User-Key-File-\\d: [\\w-]+[\\s\\S]{0,400}?Private-Lines: \\d+', multiline: true },
  { id: 'age-secret-key', family: 'age', kind: 'age secret key', keywords: ['age-secret-key-1'], pattern: 'AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}' },
  { id: 'ssh-public-key', family: 'SSH', kind: 'SSH public key', keywords: ['ssh-', 'ecdsa-sha2'], pattern: '\\b(?:ssh-rsa|ssh-ed25519|ssh-dss|ecdsa-sha2-nistp(?:256|384|521)) AAAA[A-Za-z0-9+/]{20,}={0,3}', keep: 0 },
  { id: 'jwt', family: 'JWT', kind: 'JWT', keywords: ['eyj'], pattern: '\\beyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}', entropy: 3 },
  { id: 'jwt-base64', family: 'JWT', kind: 'base64-encoded JWT', keywords: ['zxlk'], pattern: '\\bZXlK(?:aGJHY2lPaU|MGVYQWlPaU|cmFXUWlP|aGNIVWlPaU)[A-Za-z0-9+/_-]{40,}={0,2}', entropy: 3 },

  // Cloud providers
  { id: 'aws-access-key-id', family: 'AWS', kind: 'AWS access key', keywords: ['akia', 'asia', 'a3t', 'abia', 'acca', 'agpa', 'aida', 'aroa', 'aipa', 'anpa', 'anva', 'apka'], pattern: '\\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}\\b', entropy: 3, keep: 4 },
  { id: 'aws-secret-access-key', family: 'AWS', kind: 'AWS secret key', keywords: ['aws'], name: true, pattern: '[A-Za-z0-9/+=]{40}', entropy: 3.5, keep: 0 },
  { id: 'aws-bedrock-key', family: 'AWS', kind: 'Amazon Bedrock API key', keywords: ['absk'], pattern: '\\bABSK[A-Za-z0-9+/]{109,269}={0,2}', entropy: 3 },
  { id: 'aws-bedrock-short-key', family: 'AWS', kind: 'Amazon Bedrock API key (short-lived)', keywords: ['bedrock-api-key-'], pattern: 'bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/=%&_-]{16,}', keep: 16 },
  { id: 'azure-ad-client-secret', family: 'Azure', kind: 'Azure AD client secret', keywords: ['q~'], pattern: '(?<![\\w~.-])[a-zA-Z0-9_~.]{3}\\dQ~[a-zA-Z0-9_~.-]{31,34}(?![\\w~.-])', entropy: 3, keep: 0 },
  { id: 'azure-storage-key', family: 'Azure', kind: 'Azure storage account key', keywords: ['accountkey='], pattern: 'AccountKey=([A-Za-z0-9+/]{86}==)', group: 1, keep: 0 },
  { id: 'azure-sas-signature', family: 'Azure', kind: 'Azure SAS / workflow signature', keywords: ['sig='], pattern: '[?&]sig=([A-Za-z0-9%_-]{40,}={0,2})', group: 1, entropy: 3.5, keep: 0 },
  { id: 'azure-devops-pat', family: 'Azure', kind: 'Azure DevOps token', keywords: ['azure', 'devops', 'ado_'], name: true, pattern: '[a-z2-7]{52}|[A-Za-z0-9]{84}', entropy: 3.5 },
  { id: 'gcp-api-key', family: 'Google', kind: 'Google API key', keywords: ['aiza'], pattern: '\\bAIza[\\w-]{35}', entropy: 3.5, keep: 4 },
  { id: 'gcp-oauth-secret', family: 'Google', kind: 'Google OAuth secret', keywords: ['gocspx-'], pattern: '\\bGOCSPX-[\\w-]{24,}', keep: 7 },
  { id: 'gcp-oauth-access-token', family: 'Google', kind: 'Google OAuth access token', keywords: ['ya29.'], pattern: '\\bya29\\.[\\w-]{30,}', entropy: 3.5 },
  { id: 'gcp-oauth-refresh-token', family: 'Google', kind: 'Google OAuth refresh token', keywords: ['1//0'], pattern: '\\b1//0[\\w-]{40,}', entropy: 3.5 },
  { id: 'alibaba-access-key-id', family: 'Alibaba', kind: 'Alibaba Cloud access key', keywords: ['ltai'], pattern: '\\bLTAI[a-zA-Z0-9]{20}\\b', entropy: 2 },
  { id: 'alibaba-secret-key', family: 'Alibaba', kind: 'Alibaba Cloud secret', keywords: ['alibaba', 'aliyun'], name: true, pattern: '[a-z0-9]{30}', i: true, entropy: 2 },
  { id: 'digitalocean-token', family: 'DigitalOcean', kind: 'DigitalOcean token', keywords: ['do_v1_', 'dop_v1_', 'doo_v1_', 'dor_v1_'], pattern: '\\bdo[opr]_v1_[a-f0-9]{64}\\b', keep: 7 },
  { id: 'flyio-token', family: 'Fly.io', kind: 'Fly.io token', keywords: ['fo1_', 'fm1', 'fm2_'], pattern: '\\b(?:fo1_[\\w-]{43}|fm1[ar]_[A-Za-z0-9+/]{100,}={0,3}|fm2_[A-Za-z0-9+/]{100,}={0,3})', entropy: 4 },
  { id: 'heroku-api-key-v2', family: 'Heroku', kind: 'Heroku API key', keywords: ['hrku-'], pattern: '\\bHRKU-(?:AA)?[0-9a-zA-Z_-]{58,60}(?![\\w-])', entropy: 3.5, keep: 5 },
  { id: 'heroku-api-key', family: 'Heroku', kind: 'Heroku API key', keywords: ['heroku'], name: true, pattern: UUID, i: true },
  { id: 'cloudflare-origin-ca-key', family: 'Cloudflare', kind: 'Cloudflare Origin CA key', keywords: ['v1.0-'], pattern: '\\bv1\\.0-[a-f0-9]{24}-[a-f0-9]{146}\\b' },
  { id: 'cloudflare-api-key', family: 'Cloudflare', kind: 'Cloudflare API key', keywords: ['cloudflare', 'cf_api', 'cf_token'], name: true, pattern: '[a-z0-9_-]{40}|[a-f0-9]{37}', i: true, entropy: 2 },
  { id: 'ibm-cloud-api-key', family: 'IBM Cloud', kind: 'IBM Cloud API key', keywords: ['ibm', 'bluemix'], name: true, pattern: '[A-Za-z0-9_-]{44}', entropy: 3.5 },
  { id: 'scalingo-token', family: 'Scalingo', kind: 'Scalingo API token', keywords: ['tk-us-'], pattern: '\\btk-us-[\\w-]{48}(?![\\w-])', entropy: 2 },
  { id: 'yandex-api-key', family: 'Yandex', kind: 'Yandex Cloud API key', keywords: ['aqvn'], pattern: '\\bAQVN[A-Za-z0-9_-]{35,38}(?![\\w-])', entropy: 3 },
  { id: 'yandex-oauth-token', family: 'Yandex', kind: 'Yandex OAuth token', keywords: ['y0_'], pattern: '\\by0_[A-Za-z0-9_-]{55}(?![\\w-])', entropy: 3.5 },
  { id: 'yandex-iam-token', family: 'Yandex', kind: 'Yandex IAM token', keywords: ['yandex', 'yc_'], name: true, pattern: 't1\\.[A-Za-z0-9_-]+=*\\.[A-Za-z0-9_-]{86}=*|YC[A-Za-z0-9_-]{38}', entropy: 3 },

  // AI providers
  { id: 'anthropic-api-key', family: 'Anthropic', kind: 'Anthropic API key', keywords: ['sk-ant-'], pattern: '\\bsk-ant-(?:[a-z]+\\d\\d-)?[\\w-]{32,}', keep: 7 },
  { id: 'openai-api-key', family: 'OpenAI', kind: 'OpenAI API key', keywords: ['t3blbkfj', 'sk-proj-', 'sk-svcacct-', 'sk-admin-'], pattern: '\\bsk-(?:(?:proj|svcacct|admin|None)-)?[\\w-]{0,80}T3BlbkFJ[\\w-]{20,80}|\\bsk-(?:proj|svcacct|admin)-[\\w-]{40,200}', entropy: 3.5, keep: 3 },
  { id: 'sk-api-key', family: 'OpenAI', kind: 'OpenAI-style API key', keywords: ['sk-'], pattern: '\\bsk-(?!ant-)[A-Za-z0-9_-]{20,}', entropy: 3.5, keep: 3 },
  { id: 'perplexity-api-key', family: 'Perplexity', kind: 'Perplexity API key', keywords: ['pplx-'], pattern: '\\bpplx-[a-zA-Z0-9]{48}\\b', entropy: 4 },
  { id: 'huggingface-token', family: 'Hugging Face', kind: 'Hugging Face token', keywords: ['hf_'], pattern: '\\bhf_[A-Za-z0-9]{34,40}\\b', entropy: 3 },
  { id: 'huggingface-org-token', family: 'Hugging Face', kind: 'Hugging Face organization token', keywords: ['api_org_'], pattern: '\\bapi_org_[A-Za-z0-9]{34}\\b', entropy: 3 },
  { id: 'groq-api-key', family: 'Groq', kind: 'Groq API key', keywords: ['gsk_'], pattern: '\\bgsk_[A-Za-z0-9]{52}\\b', entropy: 3.5 },
  { id: 'xai-api-key', family: 'xAI', kind: 'xAI API key', keywords: ['xai-'], pattern: '\\bxai-[A-Za-z0-9]{80}\\b', entropy: 3.5 },
  { id: 'replicate-token', family: 'Replicate', kind: 'Replicate API token', keywords: ['r8_'], pattern: '\\br8_[A-Za-z0-9]{37}\\b', entropy: 3.5 },
  { id: 'cohere-api-key', family: 'Cohere', kind: 'Cohere API key', keywords: ['cohere', 'co_api_key'], name: true, pattern: '[a-zA-Z0-9]{40}', entropy: 4 },
  { id: 'privateai-api-key', family: 'Private AI', kind: 'Private AI API key', keywords: ['privateai', 'private_ai', 'private-ai'], name: true, pattern: '[a-z0-9]{32}', i: true, entropy: 3 },

  // Code hosting, CI and package registries
  { id: 'github-token', family: 'GitHub', kind: 'GitHub token', keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], pattern: '\\bgh[pousr]_[A-Za-z0-9]{36,255}\\b', entropy: 3, keep: 4 },
  { id: 'github-fine-grained-pat', family: 'GitHub', kind: 'GitHub fine-grained token', keywords: ['github_pat_'], pattern: '\\bgithub_pat_[A-Za-z0-9_]{70,100}\\b', entropy: 3, keep: 11 },
  { id: 'gitlab-token', family: 'GitLab', kind: 'GitLab token', keywords: ['glpat-', 'gldt-', 'glffct-', 'glft-', 'glimt-', 'glagent-', 'gloas-', 'glsoat-', 'glrt-', 'glcbt-', 'glwt-', 'glrtr-'], pattern: '\\bgl(?:pat|dt|ffct|ft|imt|agent|oas|soat|rt|rtr|wt)-[\\w-]{20,300}(?:\\.[0-9a-z]{9})?|\\bglcbt-[0-9a-zA-Z]{1,5}_[\\w-]{20}', entropy: 3 },
  { id: 'gitlab-pipeline-trigger', family: 'GitLab', kind: 'GitLab pipeline trigger token', keywords: ['glptt-'], pattern: '\\bglptt-[0-9a-f]{40}\\b', entropy: 3 },
  { id: 'gitlab-runner-registration', family: 'GitLab', kind: 'GitLab runner registration token', keywords: ['gr1348941'], pattern: '\\bGR1348941[\\w-]{20}', entropy: 3, keep: 9 },
  { id: 'gitlab-session-cookie', family: 'GitLab', kind: 'GitLab session cookie', keywords: ['_gitlab_session='], pattern: '_gitlab_session=([0-9a-z]{32})', group: 1, keep: 0 },
  { id: 'bitbucket-app-password', family: 'Bitbucket', kind: 'Bitbucket app password', keywords: ['atbb'], pattern: '\\bATBB[A-Za-z0-9_=.-]{32,}', entropy: 3.5 },
  { id: 'bitbucket-client', family: 'Bitbucket', kind: 'Bitbucket client secret', keywords: ['bitbucket'], name: true, pattern: '[a-z0-9]{32}|[a-z0-9=_-]{64}', i: true },
  { id: 'atlassian-api-token', family: 'Atlassian', kind: 'Atlassian API token', keywords: ['atatt3'], pattern: '\\bATATT3[A-Za-z0-9_=-]{186}', entropy: 3.5 },
  { id: 'atlassian-named-token', family: 'Atlassian', kind: 'Atlassian API token', keywords: ['atlassian', 'confluence', 'jira'], name: true, pattern: '[a-z0-9]{20}[a-f0-9]{4}', i: true, entropy: 3.5 },
  { id: 'npm-token', family: 'npm', kind: 'npm token', keywords: ['npm_'], pattern: '\\bnpm_[A-Za-z0-9]{36}\\b', entropy: 2 },
  { id: 'pypi-token', family: 'PyPI', kind: 'PyPI token', keywords: ['pypi-ag'], pattern: '\\bpypi-Ag(?:EIcHlwaS5vcmc|ENdGVzdC5weXBpLm9yZw)[\\w-]{50,1000}', keep: 5 },
  { id: 'rubygems-token', family: 'RubyGems', kind: 'RubyGems API key', keywords: ['rubygems_'], pattern: '\\brubygems_[a-f0-9]{48}\\b', entropy: 2 },
  { id: 'clojars-token', family: 'Clojars', kind: 'Clojars token', keywords: ['clojars_'], pattern: '\\bCLOJARS_[a-z0-9]{60}\\b', i: true, entropy: 2 },
  { id: 'nuget-api-key', family: 'NuGet', kind: 'NuGet API key', keywords: ['oy2'], pattern: '\\boy2[a-z0-9]{43}\\b', entropy: 3.5, keep: 0 },
  { id: 'nuget-config-password', family: 'NuGet', kind: 'NuGet config password', keywords: ['<add key='], pattern: '<add key="(?:ClearText)?Password"\\s+value="([^"]{8,})"', i: true, group: 1, keep: 0 },
  { id: 'docker-hub-pat', family: 'Docker', kind: 'Docker Hub token', keywords: ['dckr_'], pattern: '\\bdckr_(?:pat|oat)_[A-Za-z0-9_-]{27,}', entropy: 3 },
  { id: 'artifactory-api-key', family: 'JFrog Artifactory', kind: 'Artifactory API key', keywords: ['akcp'], pattern: '\\bAKCp[A-Za-z0-9]{69}\\b', entropy: 4.5 },
  { id: 'artifactory-reference-token', family: 'JFrog Artifactory', kind: 'Artifactory reference token', keywords: ['cmvmd'], pattern: '\\bcmVmd[A-Za-z0-9]{59}\\b', entropy: 4.5, keep: 0 },
  { id: 'jfrog-token', family: 'JFrog Artifactory', kind: 'JFrog token', keywords: ['jfrog', 'artifactory', 'bintray', 'xray'], name: true, pattern: '[a-z0-9]{73}|[a-z0-9]{64}', i: true },
  { id: 'codecov-token', family: 'Codecov', kind: 'Codecov token', keywords: ['codecov'], name: true, pattern: `[a-z0-9]{32}|${UUID}`, i: true },
  { id: 'droneci-token', family: 'Drone CI', kind: 'Drone CI token', keywords: ['droneci', 'drone_'], name: true, pattern: '[a-z0-9]{32}', i: true },
  { id: 'travisci-token', family: 'Travis CI', kind: 'Travis CI token', keywords: ['travis'], name: true, pattern: '[a-z0-9]{22}', i: true },
  { id: 'harness-token', family: 'Harness', kind: 'Harness API key', keywords: ['pat.', 'sat.'], pattern: '\\b(?:pat|sat)\\.[\\w-]{22}\\.[a-zA-Z0-9]{24}\\.[a-zA-Z0-9]{20}(?![\\w-])', keep: 4 },
  { id: 'octopus-deploy-key', family: 'Octopus Deploy', kind: 'Octopus Deploy API key', keywords: ['api-'], pattern: '\\bAPI-[A-Z0-9]{26}\\b', entropy: 3 },
  { id: 'pulumi-token', family: 'Pulumi', kind: 'Pulumi access token', keywords: ['pul-'], pattern: '\\bpul-[a-f0-9]{40}\\b', entropy: 2 },
  { id: 'prefect-token', family: 'Prefect', kind: 'Prefect API key', keywords: ['pnu_', 'pnb_'], pattern: '\\bpn[ub]_[a-zA-Z0-9]{36}\\b', entropy: 2 },
  { id: 'sonar-token', family: 'SonarQube', kind: 'SonarQube token', keywords: ['squ_', 'sqp_', 'sqa_'], pattern: '\\bsq[upa]_[a-f0-9]{40}\\b', entropy: 3 },
  { id: 'sonar-named-token', family: 'SonarQube', kind: 'SonarQube token', keywords: ['sonar'], name: true, pattern: '[a-z0-9=_-]{40}', i: true, entropy: 3 },
  { id: 'snyk-token', family: 'Snyk', kind: 'Snyk API token', keywords: ['snyk'], name: true, pattern: UUID, i: true },
  { id: 'sourcegraph-token', family: 'Sourcegraph', kind: 'Sourcegraph access token', keywords: ['sgp_'], pattern: '\\bsgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}\\b', entropy: 3 },
  { id: 'sourcegraph-named-token', family: 'Sourcegraph', kind: 'Sourcegraph access token', keywords: ['sourcegraph'], name: true, pattern: '[a-f0-9]{40}', i: true, entropy: 3 },
  { id: 'hashicorp-tf-token', family: 'HashiCorp', kind: 'Terraform Cloud token', keywords: ['atlasv1'], pattern: '\\b[a-zA-Z0-9]{14}\\.atlasv1\\.[a-zA-Z0-9_=-]{60,70}', entropy: 3.5, keep: 0 },
  { id: 'hashicorp-tf-password', family: 'HashiCorp', kind: 'Terraform password', keywords: ['administrator_login_password'], name: true, pattern: '[a-z0-9=_-]{8,20}', i: true, entropy: 2 },
  { id: 'vault-token', family: 'HashiCorp', kind: 'Vault token', keywords: ['hvs.', 'hvb.', 'hvr.'], pattern: '\\bhv[sbr]\\.[\\w-]{90,300}', entropy: 3.5, keep: 4 },
  { id: 'vault-legacy-token', family: 'HashiCorp', kind: 'Vault token', keywords: ['s.'], pattern: '\\bs\\.(?=[A-Za-z0-9]{0,23}\\d)(?=[A-Za-z0-9]{0,23}[a-z])(?=[A-Za-z0-9]{0,23}[A-Z])[A-Za-z0-9]{24}\\b', entropy: 3.5, keep: 2 },
  { id: 'infracost-token', family: 'Infracost', kind: 'Infracost API key', keywords: ['ico-'], pattern: '(?<![\\w.-])ico-[a-zA-Z0-9]{32}\\b', entropy: 3 },
  { id: 'doppler-token', family: 'Doppler', kind: 'Doppler token', keywords: ['dp.'], pattern: '\\bdp\\.(?:pt|st|sa|ct|scim|audit)\\.[a-zA-Z0-9]{40,44}\\b', entropy: 2 },
  { id: 'databricks-token', family: 'Databricks', kind: 'Databricks token', keywords: ['dapi'], pattern: '\\bdapi[a-f0-9]{32}(?:-\\d)?\\b', entropy: 3 },
  { id: 'clickhouse-key', family: 'ClickHouse', kind: 'ClickHouse Cloud key', keywords: ['4b1d'], pattern: '\\b4b1d[A-Za-z0-9]{38}\\b', entropy: 3 },
  { id: 'planetscale-token', family: 'PlanetScale', kind: 'PlanetScale token', keywords: ['pscale_'], pattern: '\\bpscale_(?:tkn|pw|oauth)_[\\w=.-]{32,64}', entropy: 3 },
  { id: 'supabase-token', family: 'Supabase', kind: 'Supabase access token', keywords: ['sbp_'], pattern: '\\bsbp_[a-f0-9]{40}\\b', entropy: 3 },
  { id: 'netlify-token', family: 'Netlify', kind: 'Netlify token', keywords: ['nfp_'], pattern: '\\bnfp_[A-Za-z0-9]{36,40}\\b', entropy: 3 },
  { id: 'netlify-named-token', family: 'Netlify', kind: 'Netlify token', keywords: ['netlify'], name: true, pattern: '[a-z0-9=_-]{40,46}', i: true },
  { id: 'defined-networking-token', family: 'Defined Networking', kind: 'Defined Networking API token', keywords: ['dnkey-'], pattern: '\\bdnkey-[a-z0-9=_-]{26}-[a-z0-9=_-]{52}', i: true },
  { id: 'readme-token', family: 'ReadMe', kind: 'ReadMe API key', keywords: ['rdme_'], pattern: '\\brdme_[a-z0-9]{70}\\b', entropy: 2 },
  { id: 'openshift-token', family: 'OpenShift', kind: 'OpenShift user token', keywords: ['sha256~'], pattern: '\\bsha256~[\\w-]{43}(?![\\w-])', entropy: 3.5, keep: 7 },
  { id: 'kubernetes-secret', family: 'Kubernetes', kind: 'Kubernetes Secret data', keywords: ['kind: secret', 'kind: "secret"'], pattern: '\\bkind:\\s*["\']?Secret["\']?[\\s\\S]{0,300}?\\bdata:[ \\t]*\\r?\\n[ \\t]+[\\w.-]+:[ \\t]*["\']?([A-Za-z0-9+/]{10,}={0,3})', i: true, group: 1, multiline: true, entropy: 3, keep: 0 },

  // Chat, mail and messaging
  { id: 'slack-token', family: 'Slack', kind: 'Slack token', keywords: ['xoxb-', 'xoxp-', 'xoxa-', 'xoxr-', 'xoxo-', 'xoxs-', 'xoxe-', 'xoxe.'], pattern: '\\bxox[bpae]-\\d{8,14}-(?:\\d{8,14}-){0,2}[A-Za-z0-9]{18,40}\\b|\\bxox[os]-\\d+-\\d+-\\d+-[a-fA-F\\d]{16,}\\b|\\bxox[ar]-(?:\\d-)?[0-9a-zA-Z]{16,48}\\b|\\bxoxe\\.xox[bp]-\\d-[A-Za-z0-9]{160,170}\\b|\\bxoxe-\\d-[A-Za-z0-9]{140,150}\\b', entropy: 3, keep: 5 },
  { id: 'slack-app-token', family: 'Slack', kind: 'Slack app token', keywords: ['xapp-'], pattern: '\\bxapp-\\d-[A-Z0-9]+-\\d+-[a-z0-9]+', i: true, keep: 5 },
  { id: 'slack-webhook', family: 'Slack', kind: 'Slack webhook', keywords: ['hooks.slack.com'], pattern: '(?:https?://)?hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{30,}', keep: 0 },
  { id: 'teams-webhook', family: 'Microsoft Teams', kind: 'Microsoft Teams webhook', keywords: ['webhook.office.com'], pattern: `https://[a-z0-9-]+\\.webhook\\.office\\.com/webhookb2/${UUID}@${UUID}/IncomingWebhook/[a-z0-9]{32}/${UUID}(?:/[\\w-]+)?`, i: true, keep: 0 },
  { id: 'discord-webhook', family: 'Discord', kind: 'Discord webhook', keywords: ['discord.com/api/webhooks', 'discordapp.com/api/webhooks'], pattern: 'discord(?:app)?\\.com/api/webhooks/\\d{17,20}/[\\w-]{60,70}', keep: 0 },
  { id: 'discord-token', family: 'Discord', kind: 'Discord token', keywords: ['discord'], name: true, pattern: '[a-f0-9]{64}|[0-9]{18}|[a-z0-9=_-]{32}|[MN][A-Za-z\\d]{23,25}\\.[\\w-]{6}\\.[\\w-]{27,38}', i: true, entropy: 2 },
  { id: 'telegram-bot-token', family: 'Telegram', kind: 'Telegram bot token', keywords: [':aa'], pattern: '\\b\\d{8,10}:AA[\\w-]{33}(?![\\w-])', entropy: 3.5, keep: 0 },
  { id: 'telegram-named-token', family: 'Telegram', kind: 'Telegram bot token', keywords: ['telegr'], name: true, pattern: '[0-9]{5,16}:A[a-zA-Z0-9_-]{34}' },
  { id: 'mattermost-token', family: 'Mattermost', kind: 'Mattermost token', keywords: ['mattermost'], name: true, pattern: '[a-z0-9]{26}', i: true },
  { id: 'gitter-token', family: 'Gitter', kind: 'Gitter token', keywords: ['gitter'], name: true, pattern: '[a-z0-9_-]{40}', i: true },
  { id: 'messagebird-token', family: 'MessageBird', kind: 'MessageBird key', keywords: ['messagebird', 'message_bird', 'message-bird'], name: true, pattern: `[a-z0-9]{25}|${UUID}`, i: true },
  { id: 'sendbird-token', family: 'Sendbird', kind: 'Sendbird token', keywords: ['sendbird'], name: true, pattern: `[a-f0-9]{40}|${UUID}`, i: true },
  { id: 'sendgrid-key', family: 'SendGrid', kind: 'SendGrid key', keywords: ['sg.'], pattern: '\\bSG\\.[\\w-]{22}\\.[\\w-]{43}', keep: 3 },
  { id: 'sendinblue-key', family: 'Brevo (Sendinblue)', kind: 'Brevo (Sendinblue) key', keywords: ['xkeysib-', 'xsmtpsib-'], pattern: '\\bx(?:keysib|smtpsib)-[a-f0-9]{64}-[a-zA-Z0-9]{16}\\b', keep: 8 },
  { id: 'mailchimp-key', family: 'Mailchimp', kind: 'Mailchimp API key', keywords: ['-us'], pattern: '\\b[a-f0-9]{32}-us\\d{1,2}\\b', entropy: 3, keep: 0 },
  { id: 'mailgun-key', family: 'Mailgun', kind: 'Mailgun API key', keywords: ['key-'], pattern: '\\b(?:pub)?key-[a-f0-9]{32}\\b', entropy: 3, keep: 4 },
  { id: 'mailgun-signing-key', family: 'Mailgun', kind: 'Mailgun signing key', keywords: ['mailgun'], name: true, pattern: '[a-h0-9]{32}-[a-h0-9]{8}-[a-h0-9]{8}', i: true },
  { id: 'twilio-api-key', family: 'Twilio', kind: 'Twilio key', keywords: ['sk'], pattern: '\\bSK[0-9a-fA-F]{32}\\b', entropy: 3, keep: 2 },
  { id: 'twilio-auth-token', family: 'Twilio', kind: 'Twilio auth token', keywords: ['twilio'], name: true, pattern: '[a-f0-9]{32}', entropy: 3 },
  { id: 'intercom-token', family: 'Intercom', kind: 'Intercom token', keywords: ['intercom'], name: true, pattern: '[a-z0-9=_-]{60}', i: true },
  { id: 'zendesk-token', family: 'Zendesk', kind: 'Zendesk key', keywords: ['zendesk'], name: true, pattern: '[a-z0-9]{40}', i: true },
  { id: 'notion-token', family: 'Notion', kind: 'Notion API token', keywords: ['ntn_', 'secret_'], pattern: '\\bntn_[0-9]{11}[A-Za-z0-9]{35}\\b|\\bsecret_[A-Za-z0-9]{43}\\b', entropy: 4, keep: 4 },
  { id: 'linear-api-key', family: 'Linear', kind: 'Linear API key', keywords: ['lin_api_', 'lin_oauth_'], pattern: '\\blin_(?:api_[a-zA-Z0-9]{40}|oauth_[a-f0-9]{64})\\b', entropy: 2, keep: 8 },
  { id: 'linear-client-secret', family: 'Linear', kind: 'Linear client secret', keywords: ['linear'], name: true, pattern: '[a-f0-9]{32}', i: true, entropy: 2 },
  { id: 'asana-token', family: 'Asana', kind: 'Asana token', keywords: ['asana'], name: true, pattern: '[0-9]{16}|[a-z0-9]{32}|[0-2]/[0-9]{10,17}(?:/[0-9]{10,17})?:[a-f0-9]{32}', i: true },
  { id: 'typeform-token', family: 'Typeform', kind: 'Typeform token', keywords: ['tfp_'], pattern: '\\btfp_[a-zA-Z0-9_.=-]{59}', entropy: 3 },
  { id: 'postman-token', family: 'Postman', kind: 'Postman API key', keywords: ['pmak-'], pattern: '\\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\\b', i: true, keep: 5 },
  { id: 'figma-token', family: 'Figma', kind: 'Figma token', keywords: ['figd_'], pattern: '\\bfigd_[\\w-]{40}', entropy: 3 },
  { id: 'airtable-pat', family: 'Airtable', kind: 'Airtable token', keywords: ['pat'], pattern: '\\bpat[A-Za-z0-9]{14}\\.[a-f0-9]{64}\\b', entropy: 3, keep: 3 },
  { id: 'airtable-api-key', family: 'Airtable', kind: 'Airtable API key', keywords: ['airtable'], name: true, pattern: '[a-z0-9]{17}', i: true },
  { id: 'frameio-token', family: 'Frame.io', kind: 'Frame.io token', keywords: ['fio-u-'], pattern: '\\bfio-u-[a-zA-Z0-9_=-]{64}', keep: 6 },
  { id: 'dropbox-short-token', family: 'Dropbox', kind: 'Dropbox token', keywords: ['sl.'], pattern: '\\bsl\\.[A-Za-z0-9_=-]{130,}', entropy: 4, keep: 3 },
  { id: 'dropbox-token', family: 'Dropbox', kind: 'Dropbox token', keywords: ['dropbox'], name: true, pattern: '[a-z0-9]{15}|[a-z0-9]{11}AAAAAAAAAA[a-z0-9_=-]{43}', i: true },
  { id: 'contentful-pat', family: 'Contentful', kind: 'Contentful token', keywords: ['cfpat-'], pattern: '\\bCFPAT-[\\w-]{43}', keep: 6 },
  { id: 'contentful-delivery-token', family: 'Contentful', kind: 'Contentful token', keywords: ['contentful'], name: true, pattern: '[a-z0-9=_-]{43}', i: true },
  { id: 'squarespace-token', family: 'Squarespace', kind: 'Squarespace token', keywords: ['squarespace'], name: true, pattern: UUID, i: true },
  { id: 'hubspot-token', family: 'HubSpot', kind: 'HubSpot token', keywords: ['pat-na', 'pat-eu', 'pat-ap'], pattern: `\\bpat-(?:na|eu|ap)\\d-${UUID}\\b`, keep: 0 },
  { id: 'hubspot-api-key', family: 'HubSpot', kind: 'HubSpot API key', keywords: ['hubspot'], name: true, pattern: UUID_UPPER, i: true },
  { id: 'launchdarkly-key', family: 'LaunchDarkly', kind: 'LaunchDarkly key', keywords: ['launchdarkly'], name: true, pattern: `[a-z0-9=_-]{40}|(?:api|sdk|mob)-${UUID}`, i: true },
  { id: 'freshbooks-token', family: 'FreshBooks', kind: 'FreshBooks token', keywords: ['freshbooks'], name: true, pattern: '[a-z0-9]{64}', i: true },
  { id: 'linkedin-secret', family: 'LinkedIn', kind: 'LinkedIn client secret', keywords: ['linkedin', 'linked_in', 'linked-in'], name: true, pattern: '[a-z0-9]{14}|[a-z0-9]{16}', i: true, entropy: 2 },
  { id: 'looker-secret', family: 'Looker', kind: 'Looker client secret', keywords: ['looker'], name: true, pattern: '[a-z0-9]{20}|[a-z0-9]{24}', i: true },
  { id: 'nytimes-token', family: 'New York Times', kind: 'New York Times API key', keywords: ['nytimes', 'new-york-times', 'newyorktimes'], name: true, pattern: '[a-z0-9=_-]{32}', i: true },
  { id: 'rapidapi-key', family: 'RapidAPI', kind: 'RapidAPI key', keywords: ['rapidapi'], name: true, pattern: '[a-z0-9_-]{50}', i: true },
  { id: 'adafruit-key', family: 'Adafruit', kind: 'Adafruit IO key', keywords: ['aio_'], pattern: '\\baio_[A-Za-z0-9]{28}\\b', entropy: 3, keep: 4 },
  { id: 'adafruit-named-key', family: 'Adafruit', kind: 'Adafruit IO key', keywords: ['adafruit'], name: true, pattern: '[a-z0-9_-]{32}', i: true },
  { id: 'algolia-key', family: 'Algolia', kind: 'Algolia API key', keywords: ['algolia'], name: true, pattern: '[a-z0-9]{32}', i: true },
  { id: 'beamer-token', family: 'Beamer', kind: 'Beamer API key', keywords: ['beamer'], name: true, pattern: 'b_[a-z0-9=_-]{44}', i: true },
  { id: 'etsy-token', family: 'Etsy', kind: 'Etsy API key', keywords: ['etsy'], name: true, pattern: '[a-z0-9]{24}', i: true, entropy: 3 },
  { id: 'flickr-token', family: 'Flickr', kind: 'Flickr API key', keywords: ['flickr'], name: true, pattern: '[a-z0-9]{32}', i: true },
  { id: 'twitch-token', family: 'Twitch', kind: 'Twitch token', keywords: ['twitch'], name: true, pattern: '[a-z0-9]{30}', i: true },
  { id: 'twitter-bearer', family: 'Twitter', kind: 'Twitter bearer token', keywords: ['aaaaaaaaaaaaaaaaaaaaaa'], pattern: '\\bA{22}[a-zA-Z0-9%]{80,100}', keep: 0 },
  { id: 'twitter-token', family: 'Twitter', kind: 'Twitter token', keywords: ['twitter'], name: true, pattern: '[a-z0-9]{25}|[a-z0-9]{45}|[a-z0-9]{50}|[0-9]{15,25}-[a-zA-Z0-9]{20,40}', i: true },
  { id: 'facebook-app-token', family: 'Facebook', kind: 'Facebook app access token', keywords: ['|', '%7c'], pattern: '\\b\\d{15,16}(?:\\||%7C)[0-9A-Za-z_-]{27,40}(?![\\w-])', entropy: 3, keep: 0 },
  { id: 'facebook-page-token', family: 'Facebook', kind: 'Facebook access token', keywords: ['eaa'], pattern: '\\bEAA[A-Za-z0-9]{100,}', entropy: 4, keep: 3 },
  { id: 'facebook-token', family: 'Facebook', kind: 'Facebook secret', keywords: ['facebook', 'fb_'], name: true, pattern: '[a-f0-9]{32}|[0-9]{15,16}(?:\\||%7C)[0-9a-z_-]{27,40}', i: true, entropy: 3 },
  { id: 'okta-token', family: 'Okta', kind: 'Okta token', keywords: ['okta'], name: true, pattern: '00[\\w=-]{40}', entropy: 4 },
  { id: 'authress-key', family: 'Authress', kind: 'Authress access key', keywords: ['sc_', 'ext_', 'scauth_', 'authress_'], pattern: '\\b(?:sc|ext|scauth|authress)_[a-z0-9]{5,30}\\.[a-z0-9]{4,6}\\.acc[_-][a-z0-9-]{10,32}\\.[a-z0-9+/_=-]{30,120}', i: true, entropy: 2, keep: 0 },
  { id: 'onepassword-secret-key', family: '1Password', kind: '1Password secret key', keywords: ['a3-'], pattern: '\\bA3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}\\b', entropy: 3.5, keep: 3 },
  { id: 'onepassword-service-token', family: '1Password', kind: '1Password service account token', keywords: ['ops_ey'], pattern: '\\bops_eyJ[a-zA-Z0-9+/]{250,}={0,3}', entropy: 4, keep: 4 },
  { id: 'dynatrace-token', family: 'Dynatrace', kind: 'Dynatrace token', keywords: ['dt0c01.'], pattern: '\\bdt0c01\\.[a-z0-9]{24}\\.[a-z0-9]{64}\\b', i: true, entropy: 4, keep: 7 },
  { id: 'grafana-token', family: 'Grafana', kind: 'Grafana token', keywords: ['eyjrijoi', 'glc_', 'glsa_'], pattern: '\\beyJrIjoi[A-Za-z0-9]{70,400}={0,3}|\\bglc_[A-Za-z0-9+/]{32,400}={0,3}|\\bglsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\\b', entropy: 3 },
  { id: 'new-relic-key', family: 'New Relic', kind: 'New Relic key', keywords: ['nrak-', 'nrjs-', 'nrii-', 'nral'], pattern: '\\bNRAK-[A-Z0-9]{27}\\b|\\bNRJS-[a-f0-9]{19}\\b|\\bNRII-[a-z0-9-]{32}\\b|\\b[a-f0-9]{36}NRAL\\b', i: true, keep: 5 },
  { id: 'new-relic-named', family: 'New Relic', kind: 'New Relic key', keywords: ['new-relic', 'newrelic', 'new_relic'], name: true, pattern: '[a-z0-9]{64}', i: true },
  { id: 'datadog-key', family: 'Datadog', kind: 'Datadog key', keywords: ['datadog', 'dd_api', 'dd_app'], name: true, pattern: '[a-z0-9]{32}|[a-z0-9]{40}', i: true, entropy: 3 },
  { id: 'sentry-token', family: 'Sentry', kind: 'Sentry token', keywords: ['sntrys_', 'sntryu_'], pattern: '\\bsntrys_eyJ[a-zA-Z0-9+/=_-]{60,400}|\\bsntryu_[a-f0-9]{64}\\b', entropy: 3.5, keep: 7 },
  { id: 'sentry-named-token', family: 'Sentry', kind: 'Sentry token', keywords: ['sentry'], name: true, pattern: '[a-f0-9]{64}', entropy: 3 },
  { id: 'sumologic-key', family: 'Sumo Logic', kind: 'Sumo Logic key', keywords: ['sumo'], name: true, pattern: 'su[a-zA-Z0-9]{12}|[a-z0-9]{64}', i: true, entropy: 3 },
  { id: 'fastly-token', family: 'Fastly', kind: 'Fastly API token', keywords: ['fastly'], name: true, pattern: '[a-z0-9=_-]{32}', i: true },
  { id: 'meraki-key', family: 'Cisco Meraki', kind: 'Cisco Meraki API key', keywords: ['meraki'], name: true, pattern: '[0-9a-f]{40}', entropy: 3 },
  { id: 'confluent-key', family: 'Confluent', kind: 'Confluent key', keywords: ['confluent'], name: true, pattern: '[a-z0-9]{16}|[a-z0-9]{64}', i: true },
  { id: 'settlemint-token', family: 'SettleMint', kind: 'SettleMint token', keywords: ['sm_pat_', 'sm_aat_', 'sm_sat_'], pattern: '\\bsm_[pas]at_[a-zA-Z0-9]{16}\\b', entropy: 3, keep: 7 },
  { id: 'intra42-secret', family: '42 Intra', kind: '42 Intra client secret', keywords: ['s-s4t2'], pattern: '\\bs-s4t2(?:ud|af)-[a-f0-9]{64}\\b', entropy: 3, keep: 9 },
  { id: 'maxmind-key', family: 'MaxMind', kind: 'MaxMind license key', keywords: ['_mmk'], pattern: '\\b[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk\\b', entropy: 4, keep: 0 },
  { id: 'sidekiq-secret', family: 'Sidekiq', kind: 'Sidekiq credentials', keywords: ['contribsys'], pattern: '\\b[a-f0-9]{8}:[a-f0-9]{8}(?=@(?:gems|enterprise)\\.contribsys\\.com)|(?<=BUNDLE_(?:ENTERPRISE|GEMS)__CONTRIBSYS__COM\\s*[=:]\\s*["\']?)[a-f0-9]{8}:[a-f0-9]{8}\\b', i: true, keep: 0 },

  // Payments and commerce
  { id: 'stripe-key', family: 'Stripe', kind: 'Stripe key', keywords: ['sk_live', 'sk_test', 'sk_prod', 'rk_live', 'rk_test', 'rk_prod', 'whsec_'], pattern: '\\b(?:[sr]k_(?:live|test|prod)_[a-zA-Z0-9]{10,99}|whsec_[a-zA-Z0-9]{32,})\\b', entropy: 2, keep: 8 },
  { id: 'square-token', family: 'Square', kind: 'Square token', keywords: ['sq0atp-', 'sq0csp-', 'eaaa'], pattern: '\\b(?:EAAA|sq0atp-)[\\w-]{22,60}|\\bsq0csp-[\\w-]{43}', entropy: 2, keep: 4 },
  { id: 'shopify-token', family: 'Shopify', kind: 'Shopify token', keywords: ['shpat_', 'shpca_', 'shppa_', 'shpss_'], pattern: '\\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\\b', entropy: 2, keep: 6 },
  { id: 'shippo-token', family: 'Shippo', kind: 'Shippo API token', keywords: ['shippo_'], pattern: '\\bshippo_(?:live|test)_[a-fA-F0-9]{40}\\b', entropy: 2, keep: 12 },
  { id: 'duffel-token', family: 'Duffel', kind: 'Duffel API token', keywords: ['duffel_'], pattern: '\\bduffel_(?:test|live)_[a-zA-Z0-9_=-]{43}', entropy: 2, keep: 12 },
  { id: 'easypost-token', family: 'EasyPost', kind: 'EasyPost API key', keywords: ['ezak', 'eztk'], pattern: '\\bEZ[AT]K[a-zA-Z0-9]{54}\\b', entropy: 2, keep: 4 },
  { id: 'flutterwave-key', family: 'Flutterwave', kind: 'Flutterwave key', keywords: ['flwseck', 'flwpubk'], pattern: '\\bFLW(?:SECK|PUBK)(?:_TEST)?-[a-h0-9]{32}-X\\b|\\bFLWSECK_TEST[a-h0-9]{12}\\b', i: true, entropy: 2 },
  { id: 'plaid-token', family: 'Plaid', kind: 'Plaid access token', keywords: ['access-sandbox-', 'access-development-', 'access-production-'], pattern: `\\baccess-(?:sandbox|development|production)-${UUID}\\b`, keep: 0 },
  { id: 'plaid-secret', family: 'Plaid', kind: 'Plaid secret', keywords: ['plaid'], name: true, pattern: '[a-z0-9]{24}|[a-z0-9]{30}', i: true, entropy: 3.5 },
  { id: 'gocardless-token', family: 'GoCardless', kind: 'GoCardless token', keywords: ['gocardless'], name: true, pattern: '(?:live|sandbox)_[a-z0-9_=-]{40}', i: true },
  { id: 'lob-key', family: 'Lob', kind: 'Lob API key', keywords: ['lob'], name: true, pattern: '(?:live|test)_(?:pub_)?[a-f0-9]{31,35}', i: true },
  { id: 'coinbase-token', family: 'Coinbase', kind: 'Coinbase token', keywords: ['coinbase'], name: true, pattern: '[a-z0-9_-]{64}', i: true },
  { id: 'kraken-token', family: 'Kraken', kind: 'Kraken key', keywords: ['kraken'], name: true, pattern: '[a-z0-9/=_+-]{80,90}', i: true },
  { id: 'kucoin-key', family: 'KuCoin', kind: 'KuCoin key', keywords: ['kucoin'], name: true, pattern: `[a-f0-9]{24}|${UUID}`, i: true },
  { id: 'bittrex-key', family: 'Bittrex', kind: 'Bittrex key', keywords: ['bittrex'], name: true, pattern: '[a-z0-9]{32}', i: true },
  { id: 'finicity-key', family: 'Finicity', kind: 'Finicity key', keywords: ['finicity'], name: true, pattern: '[a-f0-9]{32}|[a-z0-9]{20}', i: true },
  { id: 'finnhub-token', family: 'Finnhub', kind: 'Finnhub token', keywords: ['finnhub'], name: true, pattern: '[a-z0-9]{20}', i: true },
  { id: 'freemius-key', family: 'Freemius', kind: 'Freemius secret key', keywords: ['secret_key'], name: true, pattern: 'sk_[^\\s\'"]{29}' },
  { id: 'mapbox-token', family: 'Mapbox', kind: 'Mapbox token', keywords: ['sk.eyj', 'tk.eyj'], pattern: '\\b[st]k\\.eyJ[A-Za-z0-9_-]{50,}\\.[A-Za-z0-9_-]{20,}', keep: 3 },
  { id: 'mapbox-named-token', family: 'Mapbox', kind: 'Mapbox token', keywords: ['mapbox'], name: true, pattern: 'pk\\.[a-z0-9]{60}\\.[a-z0-9]{22}', i: true },
  { id: 'adobe-client-secret', family: 'Adobe', kind: 'Adobe client secret', keywords: ['p8e-'], pattern: '\\bp8e-[a-zA-Z0-9]{32}\\b', entropy: 2, keep: 4 },
  { id: 'adobe-client-id', family: 'Adobe', kind: 'Adobe client id', keywords: ['adobe'], name: true, pattern: '[a-f0-9]{32}', i: true, entropy: 2 },
];
