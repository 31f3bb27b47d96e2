import { describe, expect, it } from 'vitest';
import { MAX_SERVER_KEY_LENGTH, projectNames, serverKey, shortTitleSlug } from '../../../src/emit/project-name.js';

describe('package name from the title', () => {
  // The 16 specs of ../shared/specs, then titles no spec there has.
  it.each([
    ['Swagger Petstore', 'petstore'],
    ['Swagger Petstore - OpenAPI 3.0', 'petstore'],
    ['Swagger Petstore - OpenAPI 3.1', 'petstore'],
    ['Train Travel API', 'train-travel'],
    ["GitHub's official OpenAPI spec + Octokit extension", 'github'],
    ['Stripe API', 'stripe'],
    ['DigitalOcean API', 'digitalocean'],
    ['Kubernetes', 'kubernetes'],
    ['Slack Web API', 'slack'],
    ['Discord HTTP API (Preview)', 'discord'],
    ['Spotify Web API with fixes and improvements from sonallux', 'spotify'],
    ['Box Platform API', 'box-platform'],
    ['Brain Web API', 'brain'],
    ['Gitea API.', 'gitea'],
    ['Just Eat UK', 'just-eat-uk'],
    ['GitHub’s API', 'github'],
    ['Microsoft Graph v1.0', 'microsoft-graph'],
    ['The Official Acme Corp Widgets & Gadgets REST API', 'acme-corp-widgets'],
    ['API for Pets', 'pets'],
    ['1Password Connect', '1password-connect'],
    ['Ünïcode Café API', 'unicode-cafe'],
    ['REST API v2', 'rest-api'],
    ['API', 'api'],
    ['宠物商店 API', 'api'],
    ['ペットストア', 'api'],
    ['', 'api'],
    ['Supercalifragilisticexpialidociousservicemanagement API', 'supercalifragilisticexpi'],
  ])('%j → %j', (title, slug) => {
    expect(shortTitleSlug(title)).toBe(slug);
    expect(projectNames({}, title).packageName).toBe(`${slug}-mcp`);
  });

  it('is a few words at most, whatever the title', () => {
    expect(shortTitleSlug('Bravo Charlie Delta Echo Foxtrot')).toBe('bravo-charlie-delta');
    expect(shortTitleSlug('Internationalization Localization Globalization')).toBe('internationalization');
  });
});

describe('package name from the output folder', () => {
  it.each([
    ['out/github-mcp', 'github-mcp'],
    ['out/GitHub_MCP', 'github-mcp'],
    ['/tmp/x/My Server', 'my-server'],
  ])('-o %s names the package %s', (out, name) => {
    expect(projectNames({ out }, "GitHub's official OpenAPI spec").packageName).toBe(name);
  });

  it('falls back to the title when the folder name has no usable character', () => {
    expect(projectNames({ out: 'out/宠物' }, 'Stripe API').packageName).toBe('stripe-mcp');
  });

  it('gives way to --name', () => {
    expect(projectNames({ name: '@me/hub', out: 'out/github-mcp' }, 'Stripe API')).toEqual({
      packageName: '@me/hub',
      serverKey: 'hub',
    });
  });
});

describe('server key', () => {
  it.each([
    ['github-mcp', 'github'],
    ['@me/github-mcp', 'github'],
    ['mcp-server-slack', 'slack'],
    ['slack-mcp-server', 'slack'],
    ['mcp', 'mcp'],
    ['my.pkg_name', 'my-pkg-name'],
    ['just-eat-uk-mcp', 'just-eat-uk'],
    ['my-very-long-project-folder-name-mcp', 'my-very-long-project'],
    ['supercalifragilisticexpialidocious', 'supercalifragilistic'],
  ])('%s → %s', (name, key) => {
    expect(serverKey(name)).toBe(key);
  });

  it('is short, lower-case letters, digits and dashes (valid in every host, no `_` for Gemini CLI to split at)', () => {
    for (const name of ['A_B.C~D', '@scope/x-mcp', 'x'.repeat(200), '---']) {
      expect(serverKey(name)).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(serverKey(name).length).toBeLessThanOrEqual(MAX_SERVER_KEY_LENGTH);
    }
  });
});
