import type { Command } from './command';

/**
 * `<command> --help`: its usage, what it breaks when it is destructive, and an example line. The example is
 * the usage with the optional parts left out and sample values in place of the placeholders, unless the
 * command gives its own.
 */
const SAMPLES: Record<string, string> = {
  TENANT_ID: 'Acme',
  APP_ID: 'Shop',
  APP_ID_OR_CLIENT_ID: 'Shop',
  NAME: 'Shop',
  URI: 'https://shop.example/callback',
  URL: 'https://shop.example/notify',
  EMAIL: 'ann@example.com',
  ADDRESS: 'ann@example.com',
  CC: 'KP',
};

/** Drops [optional] groups (nested ones too) and a trailing "   (explanation)". */
function required(usage: string): string {
  let out = usage.replace(/ {2,}\(.*$/, '');
  for (let before = ''; before !== out; ) {
    before = out;
    out = out.replace(/\s*\[[^[\]]*\]/g, '');
  }
  return out;
}

export function exampleOf(command: Command): string {
  if (command.example) return `npm run sesame -- ${command.example}`;
  const line = required(command.usage)
    .split(/\s+/)
    .map((word) => {
      if (SAMPLES[word]) return SAMPLES[word];
      if (/^[a-z-]+(\|[a-z-]+)+$/.test(word)) return word.split('|')[0];
      return word;
    })
    .join(' ');
  return `npm run sesame -- ${line}${command.danger ? ' --yes' : ''}`;
}

export function commandHelp(command: Command): string {
  return [
    `usage: npm run sesame -- ${command.usage}${command.danger ? ' [--yes]' : ''}`,
    ...(command.danger ? [`  ${command.danger}; it asks first unless --yes`] : []),
    ...(command.options.includes('tenant')
      ? [
          '  --tenant and --app take a name or an id; without --tenant: the `tenant use` default of this',
          '  directory, else the only tenant your token can see',
        ]
      : []),
    `example: ${exampleOf(command)}`,
  ].join('\n');
}
