import nodemailer from 'nodemailer';

export type OutgoingMail = { to: string; subject: string; text: string; /** An HTML part beside the text (a receipt). */ html?: string };

/** The mail port's real adapter: delivery to an SMTP server. */
export type MailTransport = { send: (mail: OutgoingMail) => Promise<void>; close: () => void };

export function smtpTransport(url: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport(url);
  return {
    async send(mail) {
      await transporter.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, ...(mail.html === undefined ? {} : { html: mail.html }) });
    },
    close: () => {
      transporter.close();
    },
  };
}
