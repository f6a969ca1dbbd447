import { Link, Text } from '@react-email/components';
import type { FilledMail, MailInline } from '@schlosstreffen/shared';
import { Fragment, type ReactNode } from 'react';
import { ActionButton, EmailLayout, styles } from './layout.js';

function Inline({ parts }: { parts: MailInline[] }) {
  return (
    <>
      {parts.map((part, index) =>
        'text' in part ? (
          <Fragment key={index}>{part.text}</Fragment>
        ) : 'bold' in part ? (
          <strong key={index}>{part.bold}</strong>
        ) : (
          <Link key={index} href={part.href} style={styles.link}>
            {part.label}
          </Link>
        ),
      )}
    </>
  );
}

/**
 * A mail as the organizers wrote it, filled in: paragraphs, lists, and a paragraph that is only a
 * link as the button. `before` and `after` are parts that are not text (a test's note, the QR code).
 */
export function TemplatedEmail({
  mail,
  before,
  after,
}: {
  mail: FilledMail;
  before?: ReactNode;
  after?: ReactNode;
}) {
  return (
    <EmailLayout preview={mail.preview || mail.subject} title={mail.title}>
      {before}
      {mail.blocks.map((block, index) =>
        block.kind === 'button' ? (
          <ActionButton key={index} href={block.href}>
            {block.label}
          </ActionButton>
        ) : block.kind === 'list' ? (
          <ul key={index} style={{ ...styles.text, paddingLeft: '20px' }}>
            {block.items.map((item, at) => (
              <li key={at} style={{ margin: '0 0 4px' }}>
                <Inline parts={item} />
              </li>
            ))}
          </ul>
        ) : (
          <Text key={index} style={styles.text}>
            {block.lines.map((line, at) => (
              <Fragment key={at}>
                {at > 0 ? <br /> : null}
                <Inline parts={line} />
              </Fragment>
            ))}
          </Text>
        ),
      )}
      {after}
    </EmailLayout>
  );
}
