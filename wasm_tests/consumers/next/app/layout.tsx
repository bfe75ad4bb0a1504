import type { ReactNode } from 'react';

export const metadata = { title: 'Transformer Playground in Next.js', icons: { icon: 'data:,' } };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
