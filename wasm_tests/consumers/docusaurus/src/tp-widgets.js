import 'transformer-playground/widgets';
