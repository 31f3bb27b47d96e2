/** Plausible values for sample data (mock responses, test arguments): one per string format. */
export function stringSample(format: string | undefined): string | undefined {
  switch (format) {
    case 'date-time':
      return '2024-01-01T00:00:00Z';
    case 'date':
      return '2024-01-01';
    case 'time':
      return '00:00:00Z';
    case 'email':
      return 'user@example.com';
    case 'uri':
    case 'url':
      return 'https://example.com';
    case 'uuid':
      return '00000000-0000-4000-8000-000000000000';
    case 'ipv4':
      return '127.0.0.1';
    case 'ipv6':
      return '::1';
    case 'hostname':
      return 'example.com';
    default:
      return undefined;
  }
}
